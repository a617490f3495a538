import { EchoBalance, EchoProvider, EchoSignIn, EchoSignOut, EchoTopUp, Logo, SignedIn, SignedOut, useEcho } from 'echo-rtk'

import { Chat } from './Chat'
import { echoConfig } from './echoConfig'
import { ImageMaker } from './ImageMaker'
import { Speech } from './Speech'

/** Checkout opens in a new tab; coming back to this one refetches the balance. */
const openCheckout = (url: string) => void window.open(url, '_blank')

function ErrorLine() {
  const { error } = useEcho()
  return error === null ? null : <p role="alert" className="error">{error}</p>
}

export function App() {
  return (
    <EchoProvider config={echoConfig}>
      <header className="bar">
        <h1>
          <Logo size={22} /> echo-rtk demo
        </h1>
        <EchoSignIn className="sign-in" />
        <SignedIn>
          <EchoSignOut className="quiet" />
        </SignedIn>
      </header>
      <ErrorLine />
      <SignedOut>
        <p className="hint">Sign in with Echo to see your credits and call models with them.</p>
      </SignedOut>
      <SignedIn>
        <main className="grid">
          <section aria-labelledby="credits">
            <h2 id="credits">Credits</h2>
            <EchoBalance className="balance" />
            <EchoTopUp className="top-up" navigate={openCheckout} />
          </section>
          <Chat />
          <ImageMaker />
          <Speech />
        </main>
      </SignedIn>
    </EchoProvider>
  )
}
