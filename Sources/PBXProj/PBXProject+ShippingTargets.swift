/// The targets whose version a release writes: what ships to users.
extension PBXProject {
    /// The targets a release's version belongs to, and the others with why they are left out.
    public struct ShippingTargets: Sendable {
        /// The application targets (`com.apple.product-type.application*`: apps, watch apps, App
        /// Clips) and the extensions they embed (every extension target: an extension ships only
        /// inside an app); in the project's order. For a project without an application target
        /// (a framework), every target that is not a test bundle.
        public var shipping: [String]
        /// The other targets, each with why: `unit tests`, `UI tests`, `a framework not
        /// embedded by an app`, ...
        public var leftOut: [(target: String, why: String)]

    }

    /// The targets a release's version belongs to (see `ShippingTargets`).
    public func shippingTargets() -> ShippingTargets {
        let all = targets
        let apps = all.filter { Self.isApplication($0.productType) }
        guard !apps.isEmpty else {
            var result = ShippingTargets(shipping: [], leftOut: [])
            for target in all {
                if let why = Self.testKind(target.productType) { result.leftOut.append((target.name, why)) } else { result.shipping.append(target.name) }
            }
            return result
        }
        // An extension (app, ExtensionKit, watch, iMessage) only ships inside an app, so every
        // one of them is part of the app's release, whether or not a dependency says so.
        let included = Set(all.filter { Self.isApplication($0.productType) || Self.isEmbeddedExtension($0.productType) }.map(\.id))
        var result = ShippingTargets(shipping: [], leftOut: [])
        for target in all {
            if included.contains(target.id) { result.shipping.append(target.name); continue }
            let why = Self.testKind(target.productType)
                ?? (target.productType.map { "not an application or an extension it embeds (\($0.hasPrefix("com.apple.product-type.") ? String($0.dropFirst("com.apple.product-type.".count)) : $0))" }
                    ?? "not an application or an extension it embeds (\(target.isa))")
            result.leftOut.append((target.name, why))
        }
        return result
    }

    static func isApplication(_ type: String?) -> Bool {
        type?.hasPrefix("com.apple.product-type.application") == true
    }

    static func isEmbeddedExtension(_ type: String?) -> Bool {
        guard let type, type.hasPrefix("com.apple.product-type.") else { return false }
        return type.contains("extension") || type.hasSuffix(".watchapp") || type.hasSuffix(".watchapp2")
    }

    static func testKind(_ type: String?) -> String? {
        switch type {
        case "com.apple.product-type.bundle.unit-test": "unit tests"
        case "com.apple.product-type.bundle.ui-testing": "UI tests"
        case let other? where other.contains("test"): "tests"
        default: nil
        }
    }
}
