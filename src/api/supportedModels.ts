import type { SupportedModel, SupportedModels, SupportedModelsResponse } from './wireTypes'

/**
 * `models.supported()`'s answer from Echo's own route. (Echo's API has no
 * `GET /api/v1/supported-models` today: see {@link echoSdkModelList}.)
 * @internal
 */
export function fromEchoRoute(answer: unknown): SupportedModels {
  const { models, models_by_provider } = (answer ?? {}) as Partial<SupportedModelsResponse>
  if (!Array.isArray(models)) throw new Error('Echo answered without a list of models (models)')
  return { models, models_by_provider: models_by_provider ?? byProvider(models), source: 'echo' }
}

/**
 * The models and prices Echo's own TypeScript SDK ships, which Echo's router bills by: the answer of
 * `models.supported()` where Echo has no route for it. Loaded only when asked for (a chunk of its
 * own in an app's bundle, about 4 KB gzip).
 * @internal
 */
export async function echoSdkModelList(): Promise<SupportedModels> {
  const { sdkVersion, models } = (await import('./echoSdkModels.json')).default as {
    sdkVersion: string
    models: SupportedModel[]
  }
  return { models, models_by_provider: byProvider(models), source: 'echo-sdk', sdkVersion }
}

function byProvider(models: SupportedModel[]): Record<string, SupportedModel[]> {
  const grouped: Record<string, SupportedModel[]> = {}
  for (const model of models) (grouped[model.provider] ??= []).push(model)
  return grouped
}
