import { afterEach, describe, expect, it, vi } from 'vitest'

import type { ResolvedEchoConfig } from '../../src/config'
import type { EchoEnvironment } from '../../src/auth/environment'
import { storedUserKey, toStorageString, type StoredUser } from '../../src/auth/storedUser'
import { TabSync, type TabEvents } from '../../src/auth/tabs'
import { memoryStorage } from '../support/memoryStorage'
import { TabChannel } from '../support/tabChannel'

const config = { apiUrl: 'https://echo.test', appId: 'app-1' } as ResolvedEchoConfig
const USER_KEY = storedUserKey(config)
const CHANNEL_NAME = 'echo-rtk:refresh:https://echo.test:app-1'

const user = (access: string, expiresAt: number): StoredUser => ({
  access_token: access,
  refresh_token: `refresh-of-${access}`,
  token_type: 'Bearer',
  profile: { sub: 'user-1' },
  expires_at: expiresAt,
})

/** A page with storage events and, unless `channel` is false, a BroadcastChannel per `openChannel`. */
function page({ channel = true } = {}) {
  const storage = memoryStorage()
  const storageListeners: ((event: StorageEvent) => void)[] = []
  const channels: TabChannel[] = []
  const env = {
    storage,
    onStorage: (listener: (event: StorageEvent) => void) => {
      storageListeners.push(listener)
      return () => void storageListeners.splice(storageListeners.indexOf(listener), 1)
    },
    openChannel: channel ? TabChannel.opener(channels) : undefined,
  }
  return {
    tabs: new TabSync(config, env as unknown as EchoEnvironment),
    storage,
    storageListeners,
    channels,
    /** Another tab wrote `key` (`null`: it cleared the storage). */
    storageEvent: (key: string | null) => {
      for (const listener of [...storageListeners]) listener({ key } as StorageEvent)
    },
  }
}

/** What the tabs told this one, in order. */
function recorder() {
  const heard: unknown[][] = []
  const events: TabEvents = {
    storedUserChanged: (stored, cleared) => void heard.push(['storedUserChanged', stored, cleared]),
    handedOver: (handed) => void heard.push(['handedOver', handed]),
    ended: () => void heard.push(['ended']),
  }
  return { heard, events }
}

describe('tabs kept in step through storage events', () => {
  it('not listening until told to; listening once, however often told', () => {
    const { tabs, storageListeners, channels, storageEvent, storage } = page()
    const { heard, events } = recorder()
    expect(tabs.isListening).toBe(false)
    tabs.listen(events)
    tabs.listen(events)
    expect(tabs.isListening).toBe(true)
    expect(storageListeners).toHaveLength(1)
    expect(channels).toHaveLength(1)
    storage.setItem(USER_KEY, toStorageString(user('access-1', 2_000)))
    storageEvent(USER_KEY)
    expect(heard).toEqual([['storedUserChanged', user('access-1', 2_000), false]])
  })

  it("a sign-in or sign-out in another tab (this app's key written) reports the user now stored", () => {
    const { tabs, storage, storageEvent } = page()
    const { heard, events } = recorder()
    tabs.listen(events)
    storage.setItem(USER_KEY, toStorageString(user('access-1', 2_000)))
    storageEvent(USER_KEY)
    storage.removeItem(USER_KEY)
    storageEvent(USER_KEY)
    expect(heard).toEqual([
      ['storedUserChanged', user('access-1', 2_000), false],
      ['storedUserChanged', null, false],
    ])
  })

  it('storage cleared in another tab (key null) reports what is stored now, and that it was cleared', () => {
    const { tabs, storageEvent } = page()
    const { heard, events } = recorder()
    tabs.listen(events)
    storageEvent(null)
    expect(heard).toEqual([['storedUserChanged', null, true]])
  })

  it("another key written (another app's user, a sign-in state) reports nothing", () => {
    const { tabs, storage, storageEvent } = page()
    const { heard, events } = recorder()
    tabs.listen(events)
    storage.setItem(USER_KEY, toStorageString(user('access-1', 2_000)))
    storageEvent('oidc.user:https://echo.test:app-2')
    storageEvent('oidc.some-state')
    expect(heard).toEqual([])
  })
})

describe('tabs kept in step through the BroadcastChannel', () => {
  it('without a BroadcastChannel: nothing to hand over on, and telling sends nothing', () => {
    const { tabs, channels, storageListeners } = page({ channel: false })
    tabs.listen(recorder().events)
    expect(tabs.isListening).toBe(true)
    expect(storageListeners).toHaveLength(1)
    expect(tabs.hasChannel).toBe(false)
    expect(() => tabs.tell({ type: 'ended' })).not.toThrow()
    expect(channels).toEqual([])
  })

  it('the channel is named for the API and the app, and is there once listening', () => {
    const { tabs, channels } = page()
    expect(tabs.name).toBe(CHANNEL_NAME)
    expect(tabs.hasChannel).toBe(false)
    tabs.listen(recorder().events)
    expect(tabs.hasChannel).toBe(true)
    expect(channels.map(({ name }) => name)).toEqual([CHANNEL_NAME])
  })

  it('telling the other tabs posts the message on the channel', () => {
    const { tabs, channels } = page()
    tabs.listen(recorder().events)
    const tokens = { type: 'tokens', user: toStorageString(user('access-2', 3_000)) } as const
    tabs.tell(tokens)
    tabs.tell({ type: 'ended' })
    expect(channels[0]?.posted).toEqual([tokens, { type: 'ended' }])
  })

  it('tokens another tab handed over are reported and kept', () => {
    const { tabs, channels } = page()
    const { heard, events } = recorder()
    tabs.listen(events)
    expect(tabs.handedOver).toBeNull()
    channels[0]?.receive({ type: 'tokens', user: toStorageString(user('access-2', 3_000)) })
    expect(heard).toEqual([['handedOver', user('access-2', 3_000)]])
    expect(tabs.handedOver).toEqual(user('access-2', 3_000))
  })

  it('the newest tokens handed over are kept: older ones arriving later are reported, not kept', () => {
    const { tabs, channels } = page()
    const { heard, events } = recorder()
    tabs.listen(events)
    channels[0]?.receive({ type: 'tokens', user: toStorageString(user('access-3', 4_000)) })
    channels[0]?.receive({ type: 'tokens', user: toStorageString(user('access-2', 3_000)) })
    expect(heard).toEqual([
      ['handedOver', user('access-3', 4_000)],
      ['handedOver', user('access-2', 3_000)],
    ])
    expect(tabs.handedOver).toEqual(user('access-3', 4_000))
    channels[0]?.receive({ type: 'tokens', user: toStorageString(user('access-4', 5_000)) })
    expect(tabs.handedOver).toEqual(user('access-4', 5_000))
  })

  it("another tab's refresh failing ends the session here", () => {
    const { tabs, channels } = page()
    const { heard, events } = recorder()
    tabs.listen(events)
    channels[0]?.receive({ type: 'ended' })
    expect(heard).toEqual([['ended']])
    expect(tabs.handedOver).toBeNull()
  })

  it.each([
    ['no message at all', null],
    ['a number', 42],
    ['a message of another type, with a user', { type: 'hello', user: toStorageString(user('access-2', 3_000)) }],
    ['a message without a type, with a user', { user: toStorageString(user('access-2', 3_000)) }],
    ['tokens that are not a stored user', { type: 'tokens', user: '{"access_token":"access-2"}' }],
    ['tokens that are not text', { type: 'tokens', user: user('access-2', 3_000) }],
    ['tokens that are not JSON', { type: 'tokens', user: 'access-2' }],
  ])('%s on the channel (any script of the origin may post) is ignored', (_what, data) => {
    const { tabs, channels } = page()
    const { heard, events } = recorder()
    tabs.listen(events)
    channels[0]?.receive(data)
    expect(heard).toEqual([])
    expect(tabs.handedOver).toBeNull()
  })

  it('forgetting drops the tokens handed over', () => {
    const { tabs, channels } = page()
    tabs.listen(recorder().events)
    channels[0]?.receive({ type: 'tokens', user: toStorageString(user('access-2', 3_000)) })
    tabs.forget()
    expect(tabs.handedOver).toBeNull()
  })
})

describe('stopping', () => {
  it('stops listening: no storage listener, the channel closed with no listener left, nothing received or sent', () => {
    const { tabs, channels, storageListeners, storageEvent } = page()
    const { heard, events } = recorder()
    tabs.listen(events)
    tabs.stop()
    expect(tabs.isListening).toBe(false)
    expect(tabs.hasChannel).toBe(false)
    expect(storageListeners).toEqual([])
    expect(channels[0]?.closed).toBe(true)
    expect(channels[0]?.messageListeners).toBe(0)
    storageEvent(USER_KEY)
    tabs.tell({ type: 'ended' })
    expect(channels[0]?.posted).toEqual([])
    expect(heard).toEqual([])
  })

  it('listens again after a stop, on a new channel', () => {
    const { tabs, channels, storageListeners } = page()
    const first = recorder()
    const second = recorder()
    tabs.listen(first.events)
    tabs.stop()
    tabs.listen(second.events)
    expect(tabs.isListening).toBe(true)
    expect(tabs.hasChannel).toBe(true)
    expect(storageListeners).toHaveLength(1)
    expect(channels).toHaveLength(2)
    channels[1]?.receive({ type: 'ended' })
    expect(first.heard).toEqual([])
    expect(second.heard).toEqual([['ended']])
  })
})

describe("with the browser's BroadcastChannel", () => {
  const opened: BroadcastChannel[] = []
  afterEach(() => {
    for (const channel of opened.splice(0)) channel.close()
  })

  it('tokens another tab posts arrive, and what this tab tells reaches the other', async () => {
    const storage = memoryStorage()
    const env = {
      storage,
      onStorage: () => () => undefined,
      openChannel: (name: string) => new BroadcastChannel(name),
    }
    const tabs = new TabSync(config, env as unknown as EchoEnvironment)
    const { heard, events } = recorder()
    tabs.listen(events)
    const otherTab = new BroadcastChannel(CHANNEL_NAME)
    opened.push(otherTab)
    const toldOther: unknown[] = []
    otherTab.addEventListener('message', ({ data }: MessageEvent<unknown>) => void toldOther.push(data))
    otherTab.postMessage({ type: 'tokens', user: toStorageString(user('access-2', 3_000)) })
    tabs.tell({ type: 'ended' })
    await vi.waitFor(() => expect(heard).toEqual([['handedOver', user('access-2', 3_000)]]))
    await vi.waitFor(() => expect(toldOther).toEqual([{ type: 'ended' }]))
    tabs.stop()
    otherTab.postMessage({ type: 'ended' })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(heard).toHaveLength(1)
  })
})
