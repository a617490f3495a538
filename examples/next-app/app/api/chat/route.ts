import { createOpenAI } from '@ai-sdk/openai'
import { convertToModelMessages, stepCountIs, streamText, tool, type UIMessage } from 'ai'
import { z } from 'zod'

import { echo } from '../../echo'
import { lookUpOrder } from '../../orders'

// The model runs here, on the app's server: its system prompt and its tool (the shop's own order
// book) stay private, and every call is billed to the signed-in user, whose session this server
// holds (echo.route reads it from the cookie, renewing the token when due).
export const POST = echo.route(async (request, user) => {
  const { messages } = (await request.json()) as { messages: UIMessage[] }
  const openai = user.modelProvider(createOpenAI)
  const result = streamText({
    model: openai('gpt-4o-mini'),
    system: 'You answer questions about orders of the shop. Look orders up with the tool.',
    messages: await convertToModelMessages(messages),
    tools: {
      lookUpOrder: tool({
        description: "Looks an order up in the shop's order book",
        inputSchema: z.object({ orderId: z.string().describe('The order number, such as A1042') }),
        execute: ({ orderId }) => Promise.resolve({ orderId, ...lookUpOrder(orderId) }),
      }),
    },
    stopWhen: stepCountIs(3),
  })
  return result.toUIMessageStreamResponse()
})
