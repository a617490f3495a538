import { EchoAccount, EchoBalance, EchoProvider, SignedIn, SignedOut, useEcho } from 'echo-rtk'

function Credits() {
  const { user } = useEcho()
  return (
    <section>
      <p>Hello, {user?.name ?? user?.email}</p>
      <EchoBalance live />
    </section>
  )
}

// Outside <SignedIn>: "Your session has ended. Sign in again." arrives once the user is signed out.
function ErrorLine() {
  const { error } = useEcho()
  return error && <p role="alert">{error}</p>
}

// Your app's id from the Echo dashboard.
export const config = { appId: '60601628-cdb7-481e-8f7e-921981220348' }

export default function App() {
  return (
    <EchoProvider config={config}>
      <header>
        <h1>My app</h1>
        <EchoAccount />
      </header>
      <ErrorLine />
      <SignedIn><Credits /></SignedIn>
      <SignedOut><p>Sign in to use your Echo credits.</p></SignedOut>
    </EchoProvider>
  )
}
