/// The version `slipway --version` prints; the release lane rewrites this line.
public enum SlipwayVersion {
    public static let current = "0.1.0"
}
