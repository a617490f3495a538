// What the router calls send where the caller gives nothing.

/** The Anthropic API version every `/messages` call names. */
export const ANTHROPIC_VERSION = '2023-06-01'
/** Anthropic requires `max_tokens`; this is sent when the caller leaves it out. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096
/** Images per generation call (`n`, or `sampleCount` for Google). */
export const DEFAULT_IMAGE_COUNT = 4
export const DEFAULT_IMAGE_SIZE = '1024x1024'
/** Google's counterpart of {@link DEFAULT_IMAGE_SIZE}. */
export const DEFAULT_IMAGE_ASPECT_RATIO = '1:1'
/** Google refuses a `batchEmbedContents` call with more inputs than this. */
export const GOOGLE_EMBED_BATCH_LIMIT = 2048
