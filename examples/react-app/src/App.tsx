import { EchoAccount, EchoBalance, EchoProvider, EchoTopUp, Logo, SignedIn, SignedOut, useEcho } from 'echo-rtk'

import { Chat } from './Chat'
import { echoConfig } from './echoConfig'
import { ImageMaker } from './ImageMaker'
import { Speech } from './Speech'

/** A top-up from the app's own button: the same checkout as <EchoTopUp> (a tab of its own, closed once paid). */
function QuickTopUp() {
  const { openCheckout } = useEcho()
  return (
    <button type="button" className="quick-top-up" onClick={() => void openCheckout(5).catch(() => undefined)}>
      Add $5
    </button>
  )
}

function ErrorLine() {
  const { error } = useEcho()
  return error === null ? null : (
    <p role="alert" className="error">
      {error}
    </p>
  )
}

/** The demo; `signInNavigate` leaves for Echo's sign-in page in its place (its tests pass `echoSignIn().navigate`). */
export function App({ signInNavigate }: { signInNavigate?: (url: string) => void }) {
  return (
    <EchoProvider config={echoConfig}>
      <header className="bar">
        <h1>
          <Logo size={22} /> echo-rtk demo
        </h1>
        <EchoAccount className="account" {...(signInNavigate === undefined ? {} : { signInNavigate })} />
      </header>
      <ErrorLine />
      {/* The chat stays mounted across a sign-in: what the user typed stays where it was. */}
      <main className="grid">
        <SignedOut>
          <section className="welcome" aria-labelledby="welcome">
            <h2 id="welcome">Your AI credits, in any app</h2>
            <p>
              Ask the chat anything: Echo asks you to sign in, in a window of its own, and the answer follows. Signed
              in, see your credits, top them up, and draw and speak with them too.
            </p>
          </section>
        </SignedOut>
        <SignedIn>
          <section aria-labelledby="credits" className="credits">
            <h2 id="credits">Credits</h2>
            <EchoBalance className="balance" live />
            <EchoTopUp className="top-up" />
            <QuickTopUp />
          </section>
        </SignedIn>
        <Chat {...(signInNavigate === undefined ? {} : { signInNavigate })} />
        <SignedIn>
          <ImageMaker />
          <Speech />
        </SignedIn>
      </main>
    </EchoProvider>
  )
}
