/// Whole numbers and durations from doubles that came from outside (a log's test durations, a
/// plugin's progress), without the trap `Int(_:)` has for NaN, infinities and values past
/// `Int.max`.
public enum NumberText {
    /// `value` rounded to the nearest whole number and clamped into `range`; NaN gives the lower
    /// bound.
    public static func roundedInt(_ value: Double, in range: ClosedRange<Int>) -> Int {
        guard !value.isNaN else { return range.lowerBound }
        let rounded = value.rounded()
        if rounded <= Double(range.lowerBound) { return range.lowerBound }
        if rounded >= Double(range.upperBound) { return range.upperBound }
        return Int(rounded)
    }

    /// Seconds with three decimals (`12.034`). Negative and NaN durations read as 0, and
    /// durations are capped at 10^12 s (31,000 years): no log states a longer one truthfully.
    public static func seconds(_ value: Double) -> String {
        let thousandths = roundedInt(value * 1000, in: 0...1_000_000_000_000_000)
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
