// app/api/ask/route.ts (Next.js; any server with Web Request/Response): a model call on your own
// server, billed to the user whose token the browser's useEchoFetch() sends.
import { createEchoServer } from 'echo-rtk/server'

const echo = createEchoServer({ appId: process.env.ECHO_APP_ID! })

export const POST = echo.route(async (request, user) => {
  const { question } = (await request.json()) as { question: string }
  const reply = await user.router.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: question }],
  })
  return Response.json({ answer: reply.choices[0]?.message.content ?? '' })
})
