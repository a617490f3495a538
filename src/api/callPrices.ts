import type { PriceOf } from './callCeiling'
import { echoSdkModelList } from './supportedModels'

/**
 * Echo's prices by model: the list Echo's own TypeScript SDK ships, which Echo's router bills by, loaded when a
 * ceiling first needs it (a chunk of its own). A model with no input or output price in it has none.
 */
export async function echoPrices(): Promise<PriceOf> {
  const { models } = await echoSdkModelList()
  const byId = new Map(models.map((model) => [model.model_id, model]))
  return (model) => {
    const { input_cost_per_token: input, output_cost_per_token: output } = byId.get(model) ?? {}
    return typeof input === 'number' && typeof output === 'number' ? { input, output } : null
  }
}
