// The README's test uses vitest's globals (`test`, `expect`, `afterEach`), as `globals: true` gives them.
/// <reference types="vitest/globals" />
