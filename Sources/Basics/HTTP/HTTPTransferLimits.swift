import Foundation

/// What one response may cost: a cap on its body and a stall timeout. Both clients
/// (`CurlHTTPClient`, `URLSessionHTTPClient`) enforce them on every `send` and `download`, so a
/// hostile or broken server (an endless body, a trickle of a few bytes a second) cannot fill
/// the disk or hold a run forever. A download that breaks a limit is removed.
///
/// The limits come from the environment (`init(environment:)`), never from the checkout: a
/// Toolfile or lane file on a pull-request branch must not be able to lift them.
public struct HTTPTransferLimits: Sendable, Hashable {
    /// The most bytes a response body may have (default 1 GiB).
    public var maximumBytes: Int64
    /// The transfer fails as stalled when fewer than `minimumBytesPerWindow` bytes arrive in
    /// this long (default 30 seconds), once the response has started arriving.
    public var stallTimeout: Duration
    /// The least a stall window must bring (default 1 KiB): a server dribbling a few bytes a
    /// second is as stuck as a silent one.
    public var minimumBytesPerWindow: Int64

    /// Creates limits.
    public init(maximumBytes: Int64 = 1 << 30, stallTimeout: Duration = .seconds(30), minimumBytesPerWindow: Int64 = 1024) {
        self.maximumBytes = maximumBytes
        self.stallTimeout = stallTimeout
        self.minimumBytesPerWindow = minimumBytesPerWindow
    }

    /// 1 GiB, 30 seconds, 1 KiB.
    public static let standard = HTTPTransferLimits()

    /// The variable that sets `maximumBytes`: bytes, or a number with `KiB`, `MiB`, `GiB`
    /// (or `K`, `M`, `G`, `KB`, `MB`, `GB`, all powers of 1024).
    public static let maximumSizeVariable = "SLIPWAY_DOWNLOAD_MAX_SIZE"
    /// The variable that sets `stallTimeout`, in whole seconds.
    public static let stallTimeoutVariable = "SLIPWAY_DOWNLOAD_STALL_TIMEOUT"

    /// The standard limits with what `SLIPWAY_DOWNLOAD_MAX_SIZE` and
    /// `SLIPWAY_DOWNLOAD_STALL_TIMEOUT` set.
    /// - Throws: `HTTPError.invalidLimit` when a variable holds no positive size or number of seconds.
    public init(environment: Environment) throws {
        self.init()
        if let text = environment[Self.maximumSizeVariable] {
            guard let bytes = Self.parseSize(text) else {
                throw HTTPError.invalidLimit(variable: Self.maximumSizeVariable, value: text,
                                             expected: "a size in bytes, optionally with a unit: 1048576, 512MiB, 4GiB")
            }
            maximumBytes = bytes
        }
        if let text = environment[Self.stallTimeoutVariable] {
            guard let seconds = Int64(text.trimmingCharacters(in: .whitespaces)), seconds > 0, seconds <= 86_400 else {
                throw HTTPError.invalidLimit(variable: Self.stallTimeoutVariable, value: text,
                                             expected: "a whole number of seconds from 1 to 86400, e.g. 120")
            }
            stallTimeout = .seconds(seconds)
        }
    }

    /// `1048576`, `512MiB`, `4 GiB`, `10M` → bytes; nil for anything else, zero, or more than 2^62.
    public static func parseSize(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()
        let shifts: [String: Int64] = ["": 0, "b": 0, "k": 10, "kb": 10, "kib": 10, "m": 20, "mb": 20, "mib": 20,
                                       "g": 30, "gb": 30, "gib": 30]
        guard !digits.isEmpty, digits.count <= 19, let number = Int64(digits), number > 0, let shift = shifts[unit],
              number <= (Int64(1) << 62) >> shift
        else { return nil }
        return number << shift
    }

    /// `1 GiB`, `64 KiB`, `1000 bytes`: the limit as a person reads it.
    public static func describe(bytes: Int64) -> String {
        for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] where bytes >= Int64(1) << shift && bytes % (Int64(1) << shift) == 0 {
            return "\(bytes >> Int64(shift)) \(unit)"
        }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}

/// Counts what a response has brought against its limits; both HTTP clients feed it from
/// their callbacks. Time is read by the caller (a monotonic clock), so the logic is a value.
public struct HTTPTransferBudget: Sendable {
    /// The URL, for the messages.
    public let url: String
    /// The limits.
    public let limits: HTTPTransferLimits
    /// Body bytes so far.
    public private(set) var bodyBytes: Int64 = 0
    private var windowStart: ContinuousClock.Instant?
    private var windowBytes: Int64 = 0

    /// A budget for one response from `url`.
    public init(url: String, limits: HTTPTransferLimits) {
        self.url = url
        self.limits = limits
    }

    /// Header bytes arrived at `now`; the stall window starts with the first of them.
    public mutating func headerArrived(_ count: Int, at now: ContinuousClock.Instant) {
        if windowStart == nil { windowStart = now }
        windowBytes += Int64(count)
    }

    /// The response announced its body's length.
    /// - Returns: `HTTPError.responseTooLarge` when that is over the cap.
    public func announced(contentLength: Int64) -> HTTPError? {
        contentLength > limits.maximumBytes ? .responseTooLarge(url: url, limit: limits.maximumBytes) : nil
    }

    /// Body bytes arrived at `now`.
    /// - Returns: `HTTPError.responseTooLarge` when the body is now over the cap.
    public mutating func bodyArrived(_ count: Int, at now: ContinuousClock.Instant) -> HTTPError? {
        if windowStart == nil { windowStart = now }
        windowBytes += Int64(count)
        bodyBytes += Int64(count)
        return bodyBytes > limits.maximumBytes ? .responseTooLarge(url: url, limit: limits.maximumBytes) : nil
    }

    /// Closes the stall window when it has lasted `stallTimeout`.
    /// - Returns: `HTTPError.stalled` when that window brought fewer than `minimumBytesPerWindow` bytes.
    public mutating func check(at now: ContinuousClock.Instant) -> HTTPError? {
        guard let start = windowStart, now - start >= limits.stallTimeout else { return nil }
        if windowBytes < limits.minimumBytesPerWindow {
            return .stalled(url: url, timeout: limits.stallTimeout, minimumBytes: limits.minimumBytesPerWindow)
        }
        windowStart = now
        windowBytes = 0
        return nil
    }
}
