extension ValidatedLane {
    /// What step `id` refers to in its options, env, `if` and `working-directory` (inputs,
    /// secrets, env and other steps' outputs), in order, without duplicates.
    public func references(of id: String) -> [Reference] {
        var seen = Set<Reference>()
        return (templates[id] ?? []).flatMap(\.references).filter { seen.insert($0).inserted }
    }
}
