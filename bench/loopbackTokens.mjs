// The token source both refresh storms use: an expired access token, and a refresh against the
// loopback token endpoint, which rotates the refresh token on every use as Echo's does.

/** @param {string} baseUrl @param {typeof fetch} fetchFn sends the refresh (the storm may wrap the global fetch) */
export function loopbackTokens(baseUrl, fetchFn) {
  let access = 'expired'
  let refresh = 'refresh-0'
  return {
    current: async () => access,
    refresh: async () => {
      const answer = await fetchFn(`${baseUrl}/api/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refresh }),
      })
      if (!answer.ok) throw new Error(`token endpoint answered ${answer.status}`)
      const tokens = await answer.json()
      access = tokens.access_token
      refresh = tokens.refresh_token
      return access
    },
  }
}
