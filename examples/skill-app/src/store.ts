import { configureStore } from '@reduxjs/toolkit'
import { echoDevToolsOptions, echoMiddleware, echoReducers } from 'echo-rtk'

// The app's id from the Echo dashboard (echo.merit.systems): a UUID.
export const config = { appId: '60601628-cdb7-481e-8f7e-921981220348' }

export const makeStore = () =>
  configureStore({
    reducer: { ...echoReducers /* , your own slices */ },
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(echoMiddleware),
    devTools: echoDevToolsOptions, // tokens redacted; each session action says why in meta.cause
  })
