/**
 * A request as `echo-rtk/server` reads it: a Web `Request` (Next.js route handlers, Remix, Hono,
 * Bun, Deno, edge runtimes), or a Node `IncomingMessage` (Express), of which only the headers are read.
 */
export type EchoServerRequest = Request | { headers: Record<string, string | string[] | undefined> }

/** The bearer token of `request`'s `Authorization` header; `null` when there is none. */
export function bearerTokenOf(request: EchoServerRequest): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(headerOf(request, 'authorization') ?? '')?.[1] ?? null
}

/** `request`'s header `name` (lower case), its first value; `undefined` when there is none. */
export function headerOf(request: EchoServerRequest, name: string): string | undefined {
  const { headers } = request
  return headers instanceof Headers ? (headers.get(name) ?? undefined) : firstOf(headers[name])
}

function firstOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}
