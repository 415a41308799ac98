// RawHTTP, BazaarProcess and offPool live in ProcessSupport (shared with bazaar-reliability);
// tests keep reaching them through `import TestSupport`.
@_exported import ProcessSupport
