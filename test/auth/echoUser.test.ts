import { describe, expect, it } from 'vitest'

import { displayNameOf, toDisplayText, toEchoUser, type EchoUser } from '../../src/auth/echoUser'

const user = (name: string | null, email: string | null): EchoUser => ({ id: 'u1', name, email, picture: null })

describe('the user read from userinfo', () => {
  it('takes the subject, the email, the name and the picture', () => {
    expect(
      toEchoUser({ sub: 'u1', email: 'ada@echo.test', name: 'Ada', picture: 'https://echo.test/ada.png' }),
    ).toEqual({ id: 'u1', email: 'ada@echo.test', name: 'Ada', picture: 'https://echo.test/ada.png' })
  })

  it('an empty claim reads as none, and an empty name falls back to the username', () => {
    expect(toEchoUser({ sub: 'u1', email: '', name: '', preferred_username: '', picture: '' })).toEqual({
      id: 'u1',
      email: null,
      name: null,
      picture: null,
    })
    expect(toEchoUser({ sub: 'u1', name: '', preferred_username: 'ada' }).name).toBe('ada')
  })
})

describe('the text shown for a user', () => {
  it('collapses every run of white space to one space and trims both ends', () => {
    expect(toDisplayText('  Ada \n\t Lovelace  ')).toBe('Ada Lovelace')
  })

  it('a control or direction-override character reads as a space, so the words around it stay apart', () => {
    expect(toDisplayText('Ada\u0000Lovelace\u202eevil')).toBe('Ada Lovelace evil')
  })

  it('keeps a text of exactly the limit whole, and cuts one over it without splitting a character', () => {
    expect(toDisplayText('abc', 3)).toBe('abc')
    expect(toDisplayText('abcd', 3)).toBe('abc')
    expect(toDisplayText('😀😀😀😀', 3)).toBe('😀😀😀')
  })

  it('is the name, else the email, else empty', () => {
    expect(displayNameOf(user(' Ada ', 'ada@echo.test'))).toBe('Ada')
    expect(displayNameOf(user(null, 'ada@echo.test'))).toBe('ada@echo.test')
    expect(displayNameOf(user(null, null))).toBe('')
  })
})
