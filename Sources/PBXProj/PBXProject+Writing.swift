extension PBXProject {
    /// The project's text with the edits applied and nothing else changed.
    ///
    /// Unedited, this is the text that was read, byte for byte. After edits, only the entries of
    /// edited objects, the lines of removed and added objects, and the comments naming objects
    /// whose display name changed differ. (XML input comes out in Xcode's ASCII form.)
    ///
    /// - Throws: `PBXProjError` only if the edited text fails to read back, which would be a bug.
    public func serialized() throws -> [UInt8] {
        try LosslessWriter(project: self).write()
    }

    /// The project written exactly as Xcode writes it: sections by isa, objects by id, keys in
    /// byte order, Xcode's quoting, indentation and derived comments.
    ///
    /// - Parameter dialect: The comment wording; by default the one the file already uses.
    /// - Throws: `PBXProjError` only if the edited text fails to read back, which would be a bug.
    public func canonicalSerialized(dialect: CommentDialect? = nil) throws -> [UInt8] {
        let dialect = dialect ?? commentDialect
        guard hasChanges else {
            return CanonicalWriter.write(tree: tree, table: table, projectName: projectName, dialect: dialect)
        }
        if let edited = EditedTree.of(self) {
            return CanonicalWriter.write(tree: edited.tree, table: edited.table, projectName: projectName, dialect: dialect)
        }
        return try canonicalSerializedBySplicing(dialect: dialect)
    }

    /// `canonicalSerialized`, written from the spliced text read back (`LosslessWriter.edited()`):
    /// the general path, and what `EditedTreeTests` compares the edited tree with.
    func canonicalSerializedBySplicing(dialect: CommentDialect? = nil) throws -> [UInt8] {
        let edited = try LosslessWriter(project: self).edited()
        return CanonicalWriter.write(tree: edited.tree, table: edited.table, projectName: projectName, dialect: dialect ?? commentDialect)
    }

    /// Whether the file as read is already in Xcode's canonical form.
    public var isCanonical: Bool {
        CanonicalWriter.isCanonical(tree: tree, table: table, projectName: projectName, dialect: commentDialect)
    }
}
