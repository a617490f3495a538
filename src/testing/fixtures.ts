import type {
  Balance,
  EchoUserAccount,
  EchoApp,
  FreeTierBalance,
  SupportedModel,
  SupportedModelsResponse,
} from '../api/wireTypes'
import type { UserInfoClaims } from '../auth/echoUser'

const APP: EchoApp = {
  id: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50',
  name: 'Test App',
  description: 'An app for tests',
  profilePictureUrl: null,
  bannerImageUrl: null,
  homepageUrl: 'https://example.com',
  isPublic: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
}
const MODELS: SupportedModel[] = [
  { model_id: 'gpt-4o-mini', provider: 'openai', input_cost_per_token: 1.5e-7, output_cost_per_token: 6e-7 },
  { model_id: 'claude-haiku-4-5', provider: 'anthropic', input_cost_per_token: 1e-6, output_cost_per_token: 5e-6 },
  { model_id: 'gemini-2.5-flash', provider: 'gemini', input_cost_per_token: 3e-7, output_cost_per_token: 2.5e-6 },
]

/** The tokens `seedEchoSession` stores, and the `n`th pair the token endpoint of `echoHandlers` issues. */
export interface EchoTestTokens {
  seeded: { accessToken: string; refreshToken: string }
  issued(n: number): { accessToken: string; refreshToken: string }
}

/**
 * Echo's answers as plain data, in the shapes of the live server, and what the test doubles hand
 * out (tokens, the checkout URL).
 *
 * @example
 * expect(screen.getByText('$10.00')).toBeDefined() // echoFixtures.balance.balance is 10
 */
export const echoFixtures = {
  userinfo: {
    sub: 'user-1',
    email: 'ada@example.com',
    email_verified: true,
    name: 'Ada Lovelace',
    preferred_username: 'ada',
    given_name: 'Ada',
    family_name: 'Lovelace',
    updated_at: 1_767_225_600,
  } satisfies UserInfoClaims,
  balance: { totalPaid: 10, totalSpent: 0, balance: 10, currency: 'USD' } satisfies Balance,
  freeTierBalance: {
    spendPoolBalance: 100,
    userSpendInfo: {
      userId: 'user-1',
      echoAppId: APP.id,
      spendPoolId: 'pool-1',
      amountSpent: 0.5,
      spendLimit: 1,
      amountLeft: 0.5,
    },
  } satisfies FreeTierBalance,
  app: APP,
  account: {
    id: 'user-1',
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    image: null,
    picture: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  } satisfies EchoUserAccount,
  supportedModels: { models: MODELS, models_by_provider: groupByProvider(MODELS) } satisfies SupportedModelsResponse,
  /** The answer every model call gives, unless `echoHandlers({ answer })` says otherwise. */
  answer: 'Hello from Echo.',
  /** Where the payment links of `echoHandlers` lead (`link-1`, `link-2`, ... for each link made). */
  checkoutUrl: 'https://checkout.echo.test/link-1',
  tokens: {
    seeded: { accessToken: 'test-access-0', refreshToken: 'test-refresh-0' },
    issued: (n: number) => ({ accessToken: `test-access-${n}`, refreshToken: `test-refresh-${n}` }),
  } satisfies EchoTestTokens,
}

function groupByProvider(models: SupportedModel[]): Record<string, SupportedModel[]> {
  const groups: Record<string, SupportedModel[]> = {}
  for (const model of models) (groups[model.provider] ??= []).push(model)
  return groups
}
