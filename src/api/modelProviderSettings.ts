import type { FetchFunction } from './tokenProvider'

/**
 * What an AI SDK provider factory is handed to call Echo's router as the user (`createOpenAI`,
 * `createAnthropic`, `createGoogleGenerativeAI` all take it): in the browser by
 * `useEchoModelProvider`, on your server by `user.modelProvider` of `echo-rtk/server`.
 */
export interface EchoModelProviderSettings {
  /** The config's `baseRouterUrl`: every provider's paths are served at the router's root. */
  baseURL: string
  /** A placeholder the provider requires; the user's token replaces it on every request. */
  apiKey: string
  /** The user's fetch: their token on every request to Echo, and nowhere else. */
  fetch: FetchFunction
}
