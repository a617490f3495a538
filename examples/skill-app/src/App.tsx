import { EchoAccount, EchoProvider, SignedIn, SignedOut } from 'echo-rtk'
import { useState } from 'react'
import { Provider } from 'react-redux'
import { Ask } from './Ask'
import { config, makeStore } from './store'

export default function App() {
  const [store] = useState(makeStore)
  return (
    <Provider store={store}>
      <EchoProvider config={config} store={store}>
        <EchoAccount />
        <SignedIn>
          <Ask />
        </SignedIn>
        <SignedOut>
          <p>Sign in to use your Echo credits.</p>
        </SignedOut>
      </EchoProvider>
    </Provider>
  )
}
