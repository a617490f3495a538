/**
 * A multipart body from plain fields: a `Blob` becomes a file part, an array repeats its field as
 * `name[]` (OpenAI's `timestamp_granularities[]`), strings, numbers and booleans are sent as text, anything else as
 * JSON.
 * `undefined` and `null` fields are left out.
 * @internal
 */
export function toFormData(fields: Record<string, unknown>): FormData {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) appendField(form, name, value)
  return form
}

function appendField(form: FormData, name: string, value: unknown): void {
  if (value === undefined || value === null) return
  if (value instanceof Blob) form.append(name, value, fileNameOf(value))
  else if (Array.isArray(value))
    for (const item of value) appendField(form, name.endsWith('[]') ? name : `${name}[]`, item)
  else if (typeof value === 'string') form.append(name, value)
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    form.append(name, value.toString())
  else form.append(name, JSON.stringify(value))
}

/**
 * A `File` keeps its name. A bare `Blob` (a MediaRecorder recording) gets one from its MIME type,
 * because OpenAI tells the audio format by the file name's extension.
 */
function fileNameOf(blob: Blob): string {
  const { name } = blob as { name?: unknown }
  if (typeof name === 'string' && name !== '') return name
  const subtype = blob.type.split(';')[0]?.split('/')[1]?.replace(/^x-/, '')
  if (subtype === undefined || subtype === '') return 'audio'
  return `audio.${subtype === 'mpeg' ? 'mp3' : subtype}`
}
