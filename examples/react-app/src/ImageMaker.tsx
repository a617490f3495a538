import { createOpenAI } from '@ai-sdk/openai'
import { generateImage } from 'ai'
import { useState, type FormEvent } from 'react'

import { useEchoModelProvider } from 'echo-rtk'

import { useModelCall } from './useModelCall'

/** One image from a prompt, with the AI SDK through the user's session (as Echo's react-image template draws). */
export function ImageMaker() {
  const openai = useEchoModelProvider(createOpenAI)
  const [prompt, setPrompt] = useState('A lighthouse at dawn')
  const [image, setImage] = useState<{ src: string; prompt: string } | null>(null)
  const { busy, problem, run } = useModelCall()

  function make(event: FormEvent) {
    event.preventDefault()
    void run(async () => {
      const { image: drawn } = await generateImage({
        model: openai.image('gpt-image-1'),
        prompt,
        n: 1,
        size: '1024x1024',
      })
      setImage({ src: `data:${drawn.mediaType};base64,${drawn.base64}`, prompt })
    })
  }

  return (
    <section aria-labelledby="image" className="image">
      <h2 id="image">Image</h2>
      <form onSubmit={make}>
        <label htmlFor="prompt">Prompt</label>
        <input id="prompt" value={prompt} onChange={(event) => setPrompt(event.target.value)} />
        <button type="submit" disabled={busy}>
          Draw
        </button>
      </form>
      <div className="picture" aria-busy={busy}>
        {image === null ? (
          <span>{busy ? 'Drawing…' : 'Your image appears here.'}</span>
        ) : (
          <img src={image.src} alt={`Generated: ${image.prompt}`} />
        )}
      </div>
      {problem !== null && <p role="alert">{problem}</p>}
    </section>
  )
}
