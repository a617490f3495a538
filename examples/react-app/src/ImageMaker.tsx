import { useState, type FormEvent } from 'react'

import { useEchoRouter } from 'echo-rtk'

import { useModelCall } from './useModelCall'

/** One image from a prompt (the router's default is 4; one is enough to look at). */
export function ImageMaker() {
  const router = useEchoRouter()
  const [prompt, setPrompt] = useState('A lighthouse at dawn')
  const [image, setImage] = useState<{ src: string; prompt: string } | null>(null)
  const { busy, problem, run } = useModelCall()

  function make(event: FormEvent) {
    event.preventDefault()
    void run(async () => {
      const { data } = await router.images.generate({ model: 'gpt-image-1', prompt, n: 1 })
      const first = data[0]
      const src = first?.b64_json ? `data:image/png;base64,${first.b64_json}` : first?.url
      setImage(src === undefined ? null : { src, prompt })
    })
  }

  return (
    <section aria-labelledby="image">
      <h2 id="image">Image</h2>
      <form onSubmit={make}>
        <label htmlFor="prompt">Prompt</label>
        <input id="prompt" value={prompt} onChange={(event) => setPrompt(event.target.value)} />
        <button type="submit" disabled={busy}>
          Draw
        </button>
      </form>
      <div className="picture" aria-busy={busy}>
        {image === null ? <span>{busy ? 'Drawing…' : 'Your image appears here.'}</span> : <img src={image.src} alt={`Generated: ${image.prompt}`} />}
      </div>
      {problem !== null && <p role="alert">{problem}</p>}
    </section>
  )
}
