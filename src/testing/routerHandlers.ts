import { http, HttpResponse, type HttpHandler } from 'msw'

import { chatAnswer, googleAnswer, messagesAnswer, pacedBody, responsesAnswer } from './answers'
import type { EchoEndpointName, EchoEndpoints } from './endpoints'
import { echoFixtures } from './fixtures'
import { failureOf, recorded, tokenAccepted, unauthorized, type EchoScenario, type MockEcho } from './mockEcho'

type ModelBody = { model?: string; stream?: boolean; stream_options?: { include_usage?: boolean } } | undefined

/**
 * The router's language endpoints, OpenAI-, Anthropic- and Google-style (the paths the official
 * clients and the AI SDK providers call), streamed when asked and paced by `streamDelayMs`. No
 * token, or the credit spent: 402 with an HTML page, as Echo's router answers.
 * @internal
 */
export function routerHandlers(echo: MockEcho, urls: EchoEndpoints): HttpHandler[] {
  const stream = (frames: string[]) => new HttpResponse(pacedBody(frames, echo.options.streamDelayMs ?? 0))

  /**
   * A model call: recorded, failed when configured, 402 without a token or credit, 401 with a refused one, else
   * `respond` with the answer text.
   */
  const billed = (name: EchoEndpointName, respond: (body: ModelBody, answer: string, request: Request) => Response) =>
    recorded(echo, name, ({ token, body }, request) => {
      const failure = failureOf(echo, name)
      if (failure !== undefined) return failure
      if (token === null || echo.options.outOfCredits) return paymentRequired()
      if (!tokenAccepted(echo, token)) return unauthorized()
      charge(echo.options, echo.options.chargePerCall ?? 0)
      return respond(body as ModelBody, echo.options.answer ?? echoFixtures.answer, request)
    })
  const messages = billed('messages', (body, answer) => {
    const model = body?.model ?? 'claude-haiku-4-5'
    return body?.stream === true
      ? stream(messagesAnswer.stream(model, answer))
      : HttpResponse.json(messagesAnswer.whole(model, answer))
  })

  return [
    http.post(
      urls.chatCompletions,
      billed('chatCompletions', (body, answer) => {
        const model = body?.model ?? 'gpt-4o-mini'
        return body?.stream === true
          ? stream(chatAnswer.stream(model, answer, body.stream_options?.include_usage === true))
          : HttpResponse.json(chatAnswer.whole(model, answer))
      }),
    ),
    http.post(
      urls.responses,
      billed('responses', (body, answer) => {
        const model = body?.model ?? 'gpt-4o-mini'
        return body?.stream === true
          ? stream(responsesAnswer.stream(model, answer))
          : HttpResponse.json(responsesAnswer.whole(model, answer))
      }),
    ),
    http.post(urls.messages, messages),
    http.post(urls.messagesV1, messages),
    http.post(
      urls.googleModels,
      billed('googleModels', (_body, answer, request) => {
        const method = /models\/[^/:]+:(\w+)/.exec(new URL(request.url).pathname)?.[1]
        if (method === 'streamGenerateContent') return stream(googleAnswer.stream(answer))
        if (method === 'generateContent') return HttpResponse.json(googleAnswer.whole(answer))
        return HttpResponse.json(
          { error: { message: `echo-rtk/testing does not answer :${method ?? '?'}` } },
          { status: 404 },
        )
      }),
    ),
  ]
}

function paymentRequired() {
  return new HttpResponse('<html><body><h1>402 Payment Required</h1><p>Insufficient credits.</p></body></html>', {
    status: 402,
    headers: { 'Content-Type': 'text/html' },
  })
}

/** Bills `usd` as Echo's router does: the free tier first, then the paid balance. */
function charge(scenario: EchoScenario, usd: number): void {
  if (usd <= 0) return
  const free =
    scenario.freeTier === undefined ? echoFixtures.freeTierBalance.userSpendInfo.amountLeft : scenario.freeTier
  const fromFree = free === null ? 0 : Math.min(Math.max(free, 0), usd)
  if (free !== null) scenario.freeTier = free - fromFree
  scenario.balance = (scenario.balance ?? echoFixtures.balance.balance) - (usd - fromFree)
}
