// The skill's "./setup" for its testing example: the README app's (msw's server, listening, with unhandled requests
// as errors; after each test the DOM cleaned up and the handlers reset).
export { server } from '../../readme-app/test/setup'
