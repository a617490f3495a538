// The login and consent pages of the OpenID provider (/interaction/:uid). A person clicks through
// them; a test fills the form; with auto-login they complete by themselves for the test user.

import { escapeHtml, page, readForm, sendHtml } from '../http/http.mjs'
import { DEMO_APP, ECHO_SCOPE, TEST_USER } from '../fixtures.mjs'

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */

const SCOPE_TEXT = {
  'llm:invoke': 'Call AI models through Echo, billed to your balance',
  offline_access: 'Stay signed in (a refresh token)',
}

/**
 * @param {{ provider: import('oidc-provider').default, autoLogin: boolean }} options
 * @returns {(req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>} false when the path is not an interaction's
 */
export function createInteractionHandler({ provider, autoLogin }) {
  return async function handleInteraction(req, res, path) {
    const match = /^\/interaction\/([\w-]+)(?:\/(login|confirm|abort))?$/.exec(path)
    if (!match) return false
    const [, uid = '', action] = match

    /** @type {import('oidc-provider').Interaction} */
    let details
    try {
      details = await provider.interactionDetails(req, res)
    } catch {
      sendHtml(
        res,
        400,
        page('Sign-in expired', '<h1>This sign-in has expired</h1><p>Go back to the app and sign in again.</p>'),
      )
      return true
    }
    if (details.uid !== uid) {
      sendHtml(
        res,
        400,
        page(
          'Sign-in expired',
          '<h1>This sign-in is not the current one</h1><p>Go back to the app and sign in again.</p>',
        ),
      )
      return true
    }
    const prompt = details.prompt.name

    if (req.method === 'GET' && action === undefined) {
      if (autoLogin) return finish(req, res, prompt === 'login' ? loggedIn() : await consented(provider, details))
      sendHtml(res, 200, prompt === 'login' ? loginPage(uid) : consentPage(uid, details.params))
      return true
    }
    if (req.method !== 'POST') {
      sendHtml(res, 405, page('Not allowed', '<h1>Method not allowed</h1>'))
      return true
    }
    if (action === 'abort') {
      return finish(req, res, { error: 'access_denied', error_description: 'The user cancelled the sign-in' }, false)
    }
    if (action === 'login' && prompt === 'login') {
      const form = await readForm(req)
      if (form.get('email')?.trim().toLowerCase() !== TEST_USER.email || form.get('password') !== TEST_USER.password) {
        sendHtml(res, 401, loginPage(uid, 'That email and password do not match the test user.'))
        return true
      }
      return finish(req, res, loggedIn())
    }
    if (action === 'confirm' && prompt === 'consent') return finish(req, res, await consented(provider, details))
    sendHtml(
      res,
      400,
      page(
        'Unexpected step',
        '<h1>This step does not match the sign-in</h1><p>Go back to the app and sign in again.</p>',
      ),
    )
    return true
  }

  /**
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   * @param {import('oidc-provider').InteractionResults} result
   */
  async function finish(req, res, result, merge = true) {
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: merge })
    return true
  }
}

function loggedIn() {
  return { login: { accountId: TEST_USER.id } }
}

/**
 * Grants what the consent prompt found missing, the way oidc-provider's example does.
 * @param {import('oidc-provider').default} provider
 * @param {import('oidc-provider').Interaction} details the interaction
 */
async function consented(provider, details) {
  const { prompt, params, session } = details
  const accountId = session?.accountId ?? TEST_USER.id
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId, clientId: String(params.client_id) })
  if (!grant) throw new Error('The grant of this sign-in has gone')
  const missing =
    /** @type {{ missingOIDCScope?: string[], missingOIDCClaims?: string[], missingResourceScopes?: Record<string, string[]> }} */ (
      prompt.details
    )
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '))
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims)
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, scopes.join(' '))
  const grantId = await grant.save()
  return { consent: { grantId } }
}

/**
 * @param {string} uid
 * @param {string} [error]
 */
function loginPage(uid, error) {
  return page(
    'Sign in to Echo (dev)',
    `<h1>Sign in to Echo (dev server)</h1>
<p class="note">The test user is <code>${escapeHtml(TEST_USER.email)}</code> with password <code>${escapeHtml(TEST_USER.password)}</code>.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" required autofocus value="${escapeHtml(TEST_USER.email)}">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
</form>
<form method="post" action="/interaction/${escapeHtml(uid)}/abort">
  <button type="submit">Cancel</button>
</form>`,
  )
}

/**
 * @param {string} uid
 * @param {Record<string, unknown>} params the authorization request's parameters
 */
function consentPage(uid, params) {
  const scopes = String(params.scope ?? ECHO_SCOPE)
    .split(' ')
    .filter(Boolean)
  const appName = params.client_id === DEMO_APP.id ? DEMO_APP.name : String(params.client_id)
  const items = scopes.map(
    (scope) =>
      `<li><code>${escapeHtml(scope)}</code>: ${escapeHtml(SCOPE_TEXT[/** @type {keyof typeof SCOPE_TEXT} */ (scope)] ?? scope)}</li>`,
  )
  return page(
    'Allow access (dev)',
    `<h1>Allow ${escapeHtml(appName)} to use your Echo account?</h1>
<p>Signed in as <strong>${escapeHtml(TEST_USER.email)}</strong>. The app asks to:</p>
<ul>${items.join('')}</ul>
<form method="post" action="/interaction/${escapeHtml(uid)}/confirm">
  <button type="submit">Allow</button>
</form>
<form method="post" action="/interaction/${escapeHtml(uid)}/abort">
  <button type="submit">Deny</button>
</form>`,
  )
}
