// Google's wire shapes: GenerateContentResponse, whole (:generateContent) and streamed as one
// GenerateContentResponse per server-sent event (:streamGenerateContent); :predict images and
// :embedContent / :batchEmbedContents vectors are built in mediaAnswers.mjs from media.mjs.

/** @typedef {import('./openaiShapes.mjs').TextContext} TextContext */
/** @typedef {import('./openaiShapes.mjs').Frame} Frame */

export const generateContent = {
  /** @param {TextContext} ctx */
  complete({ id, model, answer }) {
    return {
      candidates: [
        {
          content: { parts: [{ text: answer.text }], role: 'model' },
          finishReason: answer.truncated ? 'MAX_TOKENS' : 'STOP',
          index: 0,
        },
      ],
      usageMetadata: usage(answer, answer.tokens.length),
      modelVersion: model,
      responseId: id,
    }
  },
  /**
   * @param {TextContext} ctx
   * @returns {Frame[]}
   */
  stream({ id, model, answer }) {
    /** @param {string} text @param {number} sent @param {string} [finishReason] */
    const chunk = (text, sent, finishReason) => ({
      data: {
        candidates: [
          { content: { parts: [{ text }], role: 'model' }, ...(finishReason ? { finishReason } : {}), index: 0 },
        ],
        usageMetadata: usage(answer, sent),
        modelVersion: model,
        responseId: id,
      },
    })
    return [
      ...answer.tokens.map((token, index) => ({ events: [chunk(token, index + 1)], tokens: 1 })),
      { events: [chunk('', answer.tokens.length, answer.truncated ? 'MAX_TOKENS' : 'STOP')], tokens: 0 },
    ]
  },
}

/** A call of the request's first tool in Google's shape: a `functionCall` part. */
export const generateContentToolCall = {
  /** @param {TextContext} ctx @param {import('./toolCalls.mjs').ToolCall} call */
  complete({ id, model, answer }, call) {
    return {
      candidates: [
        {
          content: { parts: [{ functionCall: { name: call.name, args: call.args } }], role: 'model' },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: usage(answer, answer.tokens.length),
      modelVersion: model,
      responseId: id,
    }
  },
  /**
   * @param {TextContext} ctx
   * @param {import('./toolCalls.mjs').ToolCall} call
   * @returns {Frame[]}
   */
  stream(ctx, call) {
    return [{ events: [{ data: generateContentToolCall.complete(ctx, call) }], tokens: ctx.answer.tokens.length }]
  },
}

/**
 * @param {import('./answerText.mjs').TextAnswer} answer
 * @param {number} sent output tokens so far
 */
function usage(answer, sent) {
  return {
    promptTokenCount: answer.inputTokens,
    candidatesTokenCount: sent,
    totalTokenCount: answer.inputTokens + sent,
  }
}
