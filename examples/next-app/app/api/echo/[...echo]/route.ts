import { echo } from '../../../echo'

// Every route of the server-held session: sign-in and its callback, the session, sign-out, and the
// page's calls to Echo's API and router, each sent on with the user's token from the cookie.
export const GET = echo.handler
export const POST = echo.handler
