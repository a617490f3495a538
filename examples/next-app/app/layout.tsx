import type { Metadata } from 'next'
import type { ReactNode } from 'react'

import { echoSettings } from './echoSettings'
import { Providers } from './providers'
import './globals.css'

export const metadata: Metadata = { title: 'echo-rtk on Next.js' }
// The Echo settings are the server's, read per request: one build serves any Echo.
export const dynamic = 'force-dynamic'

export default function RootLayout({ children }: { children: ReactNode }) {
  const { appId, apiUrl } = echoSettings()
  return (
    <html lang="en">
      <body>
        <Providers config={{ appId, apiUrl, session: 'server' }}>{children}</Providers>
      </body>
    </html>
  )
}
