import Basics
import Git

/// `git.tag`: an annotated tag, idempotently.
public struct GitTagStep: Step {
    public static let description = StepDescription(
        id: "git.tag",
        summary: "Create an annotated tag (an existing tag on the same commit is fine; on another commit it is an error)",
        options: [
            .required("name", .string, "The tag, e.g. v1.4.0."),
            .optional("message", .string, "The annotation (default: 'Release NAME')."),
            .optional("target", .string, default: .string("HEAD"), "The commit to tag."),
        ],
        outputs: [OutputSpec("tag", "The tag's name."), OutputSpec("commit", "The tagged commit's hash.")],
        examples: [
            StepExample("Tag the release commit", "- git.tag: { name: v1.4.0 }"),
            StepExample("With a message", "- git.tag: { name: v1.4.0, message: \"Slipway 1.4.0\" }"),
        ]
    )

    let name: String
    let message: String
    let target: String

    public init(options: StepOptions) throws {
        name = try options.requiredString("name")
        message = try options.string("message") ?? "Release \(name)"
        target = try options.requiredString("target")
    }

    public func plan(in context: StepContext) throws -> [Effect] {
        [Effect(.git, "tag \(target) as \(name) ('\(message)')")]
    }

    public func run(in context: StepContext) async throws -> StepOutputs {
        let repository = try GitRepository.discover(from: context.workingDirectory)
        switch try repository.createAnnotatedTag(name: name, target: target, message: message,
                                                 environment: context.environment.variables) {
        case .created(let tag):
            context.events.log(.info, "tagged \(tag.commit.short) as \(name)")
            return ["tag": name, "commit": tag.commit.hex]
        case .alreadyExists(let tag):
            context.events.log(.info, "tag \(name) already points at \(tag.commit.short); nothing to do")
            return ["tag": name, "commit": tag.commit.hex]
        }
    }
}
