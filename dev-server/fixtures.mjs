// The fixed names of the dev server: the demo app (its OAuth client), the test user, Echo's scope
// and OAuth paths. They never change between runs, so scripts, tests and a person's notes can name them.

import echoPaths from '../src/echoPaths.json' with { type: 'json' }

/** The demo app's id: its Echo app id and its OAuth client id. */
export const DEMO_APP_ID = '6f1d2c7a-3b8e-4e15-9c0a-2d7b5e8f4a31'

/** When the fixtures were "created", as Echo's ISO dates. */
const CREATED_AT = '2025-01-01T00:00:00.000Z'

/** @type {import('../src/api/wireTypes').EchoApp} */
export const DEMO_APP = {
  id: DEMO_APP_ID,
  name: 'echo-rtk demo',
  description: 'The demo app of the echo-rtk dev server: a local stand-in for an Echo app.',
  profilePictureUrl: null,
  bannerImageUrl: null,
  homepageUrl: 'http://localhost:5173',
  isPublic: true,
  createdAt: CREATED_AT,
  updatedAt: CREATED_AT,
}

/** The demo app's free tier: a pool the app owner pays into, and what each user may draw from it (USD). */
export const DEMO_FREE_TIER = { spendPoolId: 'b3c1e9d4-5a2f-4f6b-8e0d-7c9a1b2e3f40', poolBalance: 5, spendLimit: 1 }

/** A referral code the dev server accepts once. */
export const REFERRAL_CODE = 'WELCOME'

/** The one user of the dev server; the login page accepts exactly these credentials. */
export const TEST_USER = {
  id: '0b9e4a6c-1f3d-4c8e-a2b5-9d7f6e1c3a58',
  email: 'test@example.com',
  password: 'echo-dev',
  name: 'Test User',
  givenName: 'Test',
  familyName: 'User',
  preferredUsername: 'test',
  createdAt: CREATED_AT,
}

/** The OAuth scope Echo grants; the dev server grants exactly this. */
export const ECHO_SCOPE = 'llm:invoke offline_access'

/** Echo's paths, from the one table echo-rtk itself calls (src/echoPaths.json). */
export const ECHO_PATHS = Object.freeze(echoPaths)

/** Echo's OAuth paths, by the names oidc-provider gives its routes. */
export const OAUTH_PATHS = Object.freeze({
  authorization: echoPaths.authorize,
  token: echoPaths.token,
  userinfo: echoPaths.userinfo,
  jwks: echoPaths.jwks,
  endSession: echoPaths.logout,
  revocation: echoPaths.revoke,
})
