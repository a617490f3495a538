// The shop's own order book: private to the server, which is why the chat's model runs here.

const ORDERS: Record<string, { status: string; carrier: string; arrives: string }> = {
  A1042: { status: 'shipped', carrier: 'Pigeon Post', arrives: 'Thursday' },
  B7: { status: 'packing', carrier: 'Pigeon Post', arrives: 'next week' },
}

export function lookUpOrder(orderId: string) {
  return ORDERS[orderId.toUpperCase()] ?? { status: 'not found' }
}
