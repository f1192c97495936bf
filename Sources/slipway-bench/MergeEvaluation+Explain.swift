import PBXProj

/// Why a clean merge by the driver differs from the merge the developers committed, entry by
/// entry (an object's presence, or one value of one object, dictionaries walked down to their
/// leaves), judged against the three versions the merge started from.
///
/// The driver follows the three-way rule: a value changed on one side is taken, lists merge as
/// ordered sets, objects added on a side are kept. So where the commit differs, either the
/// developer did something no parent did (an edit made while merging), or the commit left out a
/// change one parent made (kept the base's or the other side's version), or the same entries sit
/// in another order. Anything else is the driver's own doing and is reported as unexplained.
struct MergeDifferenceExplainer {
    /// A reason, in the order reports list them.
    enum Kind: Int, CaseIterable, Comparable {
        case editInMerge
        case sameAdditionOnBothSides
        case sideChangeLeftOut
        case danglingInParent
        case repeatedByLineMerge
        case order
        case unexplained

        static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }

        var label: String {
            switch self {
            case .editInMerge: "edit made in the merge commit (no parent has it)"
            case .sameAdditionOnBothSides: "both parents added the same file or object under different ids; the commit kept one"
            case .sideChangeLeftOut: "a parent's change left out of the commit"
            case .danglingInParent: "a list names an id that no object has (already broken in a parent)"
            case .repeatedByLineMerge: "the commit lists an entry twice that both parents added once (git's line merge kept both insertions)"
            case .order: "same entries in another order (both parents changed the list)"
            case .unexplained: "UNEXPLAINED (the driver's merge is not one of the above)"
            }
        }
    }

    /// One explained entry.
    struct Finding {
        var kind: Kind
        var subject: String
    }

    let base: PBXProject
    let ours: PBXProject
    let theirs: PBXProject
    let driver: PBXProject
    let committed: PBXProject

    /// Every difference between the driver's merge and the commit, explained.
    func explain() -> [Finding] {
        var findings: [Finding] = []
        let driverIDs = Set(driver.objectIDs), committedIDs = Set(committed.objectIDs)
        for id in driverIDs.subtracting(committedIDs).sorted() { findings.append(objectOnlyInDriver(id)) }
        for id in committedIDs.subtracting(driverIDs).sorted() { findings.append(objectOnlyInCommitted(id)) }
        for id in driverIDs.intersection(committedIDs).sorted() {
            guard let d = driver.object(id), let c = committed.object(id), d.properties != c.properties else { continue }
            let name = describe(id, in: driver)
            compare(
                path: [], d: .dictionary(d.properties), c: .dictionary(c.properties),
                versions: [base, ours, theirs].map { $0.object(id).map { PBXValue.dictionary($0.properties) } },
                subject: name, into: &findings)
        }
        return findings
    }

    private func objectOnlyInDriver(_ id: ObjectID) -> Finding {
        let subject = "object \(describe(id, in: driver)) dropped by the commit"
        let inBase = base.contains(id), inOurs = ours.contains(id), inTheirs = theirs.contains(id)
        if inBase && inOurs && inTheirs { return Finding(kind: .editInMerge, subject: subject) }
        if !inBase && (inOurs || inTheirs) {
            let kind: Kind = hasTwin(id, addedBy: inOurs ? theirs : ours) ? .sameAdditionOnBothSides : .sideChangeLeftOut
            return Finding(kind: kind, subject: subject)
        }
        return Finding(kind: .unexplained, subject: subject)
    }

    private func objectOnlyInCommitted(_ id: ObjectID) -> Finding {
        let subject = "object \(describe(id, in: committed)) added by the commit"
        if ours.contains(id) || theirs.contains(id) {
            return Finding(kind: .sideChangeLeftOut, subject: subject + " (a parent had deleted it)")
        }
        return Finding(kind: .editInMerge, subject: subject)
    }

    /// Walks dictionaries down to the differing leaves and judges each leaf.
    private func compare(
        path: [String], d: PBXValue?, c: PBXValue?, versions: [PBXValue?], subject: String, into findings: inout [Finding]
    ) {
        guard d != c else { return }
        if case .dictionary(let dd)? = d, case .dictionary(let cd)? = c {
            var keys = dd.keys
            for key in cd.keys where !keys.contains(key) { keys.append(key) }
            for key in keys {
                compare(
                    path: path + [key], d: dd[key], c: cd[key], versions: versions.map { $0?.dictionary?[key] },
                    subject: subject, into: &findings)
            }
            return
        }
        let place = "\(subject) \(path.joined(separator: "."))"
        if let da = d?.array ?? (d == nil ? [] : nil), let ca = c?.array ?? (c == nil ? [] : nil), d?.array != nil || c?.array != nil {
            findings += compareLists(da, ca, versions: versions.map { $0?.array ?? [] }, place: place)
            return
        }
        let kind: Kind
        if areTwins(d, c) {
            kind = .sameAdditionOnBothSides
        } else if versions.contains(where: { $0 == c }) {
            kind = versions.contains(where: { $0 == d }) ? .sideChangeLeftOut : .unexplained
        } else {
            kind = .editInMerge
        }
        findings.append(Finding(kind: kind, subject: "\(place): driver \(short(d)), commit \(short(c))"))
    }

    private func compareLists(_ d: [PBXValue], _ c: [PBXValue], versions: [[PBXValue]], place: String) -> [Finding] {
        let inD = Set(d), inC = Set(c)
        if inD == inC && d.count < c.count {
            let repeated = Set(c.filter { element in c.filter { $0 == element }.count > d.filter { $0 == element }.count })
            let (b, o, t) = (Set(versions[0]), Set(versions[1]), Set(versions[2]))
            let byBoth = repeated.allSatisfy { o.contains($0) && t.contains($0) && !b.contains($0) }
            return [Finding(kind: byBoth ? .repeatedByLineMerge : .editInMerge, subject: place + ": \(c.count - d.count) repeated")]
        }
        if inD == inC {
            // One side left the list as it was and the driver took the other's list as it is:
            // any other order is the commit's own.
            let oneSided = (versions[1] == versions[0] && d == versions[2]) || (versions[2] == versions[0] && d == versions[1])
            return [Finding(kind: oneSided ? .editInMerge : .order, subject: place + (oneSided ? ": the commit reorders a parent's list" : ""))]
        }
        let (b, o, t) = (Set(versions[0]), Set(versions[1]), Set(versions[2]))
        var findings: [Finding] = []
        for element in c where !inD.contains(element) {
            let kind: Kind = isDangling(element) ? .danglingInParent
                : b.union(o).union(t).contains(element) ? .sideChangeLeftOut : .editInMerge
            findings.append(Finding(kind: kind, subject: "\(place): commit adds \(short(element))"))
        }
        for element in d where !inC.contains(element) {
            let kind: Kind
            if b.contains(element) && o.contains(element) && t.contains(element) {
                kind = .editInMerge
            } else if isDangling(element) {
                kind = .danglingInParent
            } else if !b.contains(element) && (o.contains(element) || t.contains(element)) {
                let id = element.string.map { ObjectID($0) }
                let other = o.contains(element) ? theirs : ours
                kind = id.map { hasTwin($0, addedBy: other) } == true ? .sameAdditionOnBothSides : .sideChangeLeftOut
            } else {
                kind = .unexplained
            }
            findings.append(Finding(kind: kind, subject: "\(place): commit lacks \(short(element))"))
        }
        return findings
    }

    /// Whether a list element looks like an object id but no version has that object.
    private func isDangling(_ element: PBXValue) -> Bool {
        guard let text = element.string, text.utf8.count == 24, text.utf8.allSatisfy({ $0 < 0x80 && ($0 >= 0x30) }) else { return false }
        let id = ObjectID(text)
        return ![base, ours, theirs, driver, committed].contains { $0.contains(id) }
    }

    /// Whether two values name different objects that are the same thing (same isa and path or
    /// name): the commit points at one parent's copy of something both added, the driver at the
    /// other's.
    private func areTwins(_ d: PBXValue?, _ c: PBXValue?) -> Bool {
        guard let a = d?.string, let b = c?.string, a != b else { return false }
        let find = { (text: String) -> (PBXObject, PBXProject)? in
            for project in [driver, committed, ours, theirs] { if let object = project.object(ObjectID(text)) { return (object, project) } }
            return nil
        }
        guard let (x, xp) = find(a), let (y, yp) = find(b), let key = identity(x, in: xp) else { return false }
        return identity(y, in: yp) == key
    }

    /// Whether `other` (the parent that did not add `id`) added an object that is the same file
    /// or build file: same isa and the same path or name (a build file: of such a reference).
    private func hasTwin(_ id: ObjectID, addedBy other: PBXProject) -> Bool {
        guard let object = driver.object(id), let key = identity(object, in: driver) else { return false }
        for candidate in other.objects(isa: object.isa) where candidate.id != id && !base.contains(candidate.id) {
            if identity(candidate, in: other) == key { return true }
        }
        return false
    }

    private func identity(_ object: PBXObject, in project: PBXProject) -> String? {
        if let reference = object.string("fileRef") ?? object.string("productRef"),
            let target = project.object(ObjectID(reference)) {
            return "\(object.isa)>" + (identity(target, in: project) ?? reference)
        }
        guard let name = object.string("path") ?? object.string("name") ?? object.string("productName") else { return nil }
        return "\(object.isa):\(name)"
    }

    private func describe(_ id: ObjectID, in project: PBXProject) -> String {
        guard let object = project.object(id) else { return id.rawValue }
        let name = object.string("name") ?? object.string("path")
            ?? object.string("fileRef").flatMap { project.object(ObjectID($0)) }.flatMap { $0.string("name") ?? $0.string("path") }
        return "\(object.isa) \(name ?? id.rawValue)"
    }

    private func short(_ value: PBXValue?) -> String {
        guard let value else { return "(absent)" }
        switch value {
        case .string(let text):
            if let object = driver.object(ObjectID(text)) ?? committed.object(ObjectID(text)) {
                return describe(object.id, in: driver.contains(object.id) ? driver : committed)
            }
            return "`" + (text.count > 60 ? String(text.prefix(57)) + "..." : text) + "`"
        case .array(let items): return "[\(items.count) item(s)]"
        case .dictionary(let entries): return "{\(entries.count) key(s)}"
        case .data(let bytes): return "<\(bytes.count) bytes>"
        }
    }
}
