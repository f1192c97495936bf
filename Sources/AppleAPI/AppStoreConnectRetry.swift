/// Whether `AppStoreConnectClient` may send a request again after a 5xx answer or a dropped
/// connection, when it cannot know whether Apple acted on it. Every write of a flow says which
/// it is; docs/apple.md ("Which writes are retried") lists them. 429 and 401 answers are
/// waited out or re-tokened for every request: Apple did not act on those.
public enum AppStoreConnectRetry: Sendable, Hashable {
    /// A repeat is harmless: a read, a PATCH that sets a value, adding to a relationship, or a
    /// create that Apple refuses the second time (409) and the flow's next run looks up. Retried
    /// with the policy's backoff.
    case blindly
    /// A repeat could act twice (a tester notification, a beta review submission): never
    /// retried by the client, which throws `AppStoreConnectError.notRetried`. The flow looks the
    /// state up before trying again, or, where Apple offers no way to look (notifications),
    /// leaves the write owed for `--resume`.
    case never
}
