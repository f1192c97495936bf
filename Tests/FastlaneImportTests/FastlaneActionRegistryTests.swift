@testable import FastlaneImport
import Testing
import TestThreads

/// The registry of translators: one walk over the list.
@Suite(.dedicatedThreads) struct FastlaneActionRegistryTests {
    @Test func everyTranslatorIsWellFormed() {
        var seen: [String: String] = [:]
        for translator in FastlaneActionRegistry.translators {
            let name = translator.names[0]
            // A plugin's action (synx) is documented in its repository.
            #expect(translator.documentation == "https://docs.fastlane.tools/actions/\(name)/"
                    || translator.documentation == "https://github.com/afonsograca/fastlane-plugin-\(name)", "\(name)")
            for alias in translator.names {
                #expect(seen[alias] == nil, "\(alias) is answered by \(seen[alias] ?? "") and \(name)")
                seen[alias] = name
                #expect(FastlaneActionRegistry.translator(for: alias).map { $0.names[0] } == name)
            }
            let parameters = translator.parameters.map(\.name)
            #expect(Set(parameters).count == parameters.count, "\(name) lists a parameter twice")
            for parameter in translator.parameters {
                switch parameter.mapping {
                case .option(let option): #expect(!option.isEmpty && !option.contains("_"), "\(name).\(parameter.name)")
                case .handled(let how), .listed(let how): #expect(how.count > 10, "\(name).\(parameter.name) says why")
                }
            }
        }
    }

    /// Every argument of every translated action is carried or listed: a keyword that is not
    /// in the table is listed as such, never dropped.
    @Test func anUndocumentedKeywordIsListedForEveryAction() throws {
        for translator in FastlaneActionRegistry.translators where translator.notNeeded == nil {
            let name = translator.names[0]
            let lane = try ActionCase("\(name)(no_such_parameter: true)")
            #expect(lane.listed.contains("\(name)(no_such_parameter: …): not a parameter fastlane documents for \(name) (\(translator.documentation)); check the spelling, it is not translated"),
                    "\(name): \(lane.listed)")
        }
    }
}
