// The shapes Echo's server answers with. Servers add fields over time: the types name
// what echo-rtk relies on and let the rest through.

/** The user's paid credit balance, in US dollars. */
export interface Balance {
  totalPaid: number
  totalSpent: number
  balance: number
  currency: 'USD'
}

/**
 * How much of an app's free tier this user has spent and has left.
 *
 * @inline
 */
export interface UserSpendInfo {
  userId: string
  echoAppId: string
  spendPoolId: string | null
  amountSpent: number
  spendLimit: number | null
  /** Can be negative on the wire; show it clamped at 0. */
  amountLeft: number
}

/** The free tier an app offers its users, in US dollars. */
export interface FreeTierBalance {
  spendPoolBalance: number
  userSpendInfo: UserSpendInfo
}

/** An Echo app. Dates are ISO 8601 strings. */
export interface EchoApp {
  id: string
  name: string
  description: string | null
  profilePictureUrl: string | null
  bannerImageUrl: string | null
  homepageUrl: string | null
  isPublic: boolean | null
  createdAt: string
  updatedAt: string
}

/**
 * The apps the user can see.
 *
 * @inline
 */
export interface AppList {
  apps: EchoApp[]
}

/** A model the router accepts, with its price per token in US dollars. */
export interface SupportedModel {
  model_id: string
  provider: string
  input_cost_per_token?: number
  output_cost_per_token?: number
}

export interface SupportedModelsResponse {
  models: SupportedModel[]
  models_by_provider: Record<string, SupportedModel[]>
}

/**
 * Where a list of supported models came from: `echo`, Echo's `GET /api/v1/supported-models`; or
 * `echo-sdk`, the list Echo's own TypeScript SDK ships (Echo's router bills by it), taken where
 * Echo has no such route.
 *
 * @inline
 */
export type SupportedModelsSource = 'echo' | 'echo-sdk'

/** What `models.supported()` answers: the models, and where the list came from. */
export interface SupportedModels extends SupportedModelsResponse {
  source: SupportedModelsSource
  /** With `source: 'echo-sdk'`: the version of Echo's SDK the list is from (`@merit-systems/echo-typescript-sdk`). */
  sdkVersion?: string
}

/** What a payment link is made from; `amount` is in US dollars, at least 1. */
export interface PaymentLinkRequest {
  amount: number
  /** Shown on the checkout page. Defaults to `Echo Credits`. */
  description?: string | undefined
  /** Where checkout returns to. Defaults to the page origin. */
  successUrl?: string | undefined
}

export interface PaymentLink {
  id: string
  url: string
  amount: number
  currency: string
  status: string
  created: number | string
}

/** @inline */
export interface PaymentLinkResponse {
  paymentLink: PaymentLink
  payment?: Record<string, unknown>
}

/** The user's account as `GET /api/v1/user` returns it (what `useGetUserQuery()` gives). */
export interface EchoUserAccount {
  id: string
  email: string
  name: string | null
  image: string | null
  picture: string | null
  createdAt: string
  updatedAt: string
}

/** @inline */
export interface ReferralRequest {
  echoAppId: string
  code: string
}

export interface ReferralResponse {
  success: boolean
  message: string
}
