/**
 * A request as `echo-rtk/server` reads it: a Web `Request` (Next.js route handlers, Remix, Hono,
 * Bun, Deno, edge runtimes), or a Node `IncomingMessage` (Express), of which only the headers are read.
 */
export type EchoServerRequest = Request | { headers: Record<string, string | string[] | undefined> }

/** The bearer token of `request`'s `Authorization` header; `null` when there is none. */
export function bearerTokenOf(request: EchoServerRequest): string | null {
  const { headers } = request
  const header = headers instanceof Headers ? headers.get('authorization') : firstOf(headers.authorization)
  return /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? null
}

function firstOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}
