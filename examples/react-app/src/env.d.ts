/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Your Echo app's id; the local dev server's demo app when left out. */
  readonly VITE_ECHO_APP_ID?: string
  readonly VITE_ECHO_API_URL?: string
  readonly VITE_ECHO_ROUTER_URL?: string
}
