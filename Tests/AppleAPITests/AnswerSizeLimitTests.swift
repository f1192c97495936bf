import AppleAPI
import Basics
import Testing
import TestThreads

/// App Store Connect answers larger than the cap are refused before JSON decoding.
@Suite(.dedicatedThreads) struct AnswerSizeLimitTests {
    @Test func anAnswerOverTheCapIsRefusedNamingTheCall() {
        let body = [UInt8](repeating: 0x20, count: AppStoreConnectResponse.maximumDocumentBytes + 1)
        let response = AppStoreConnectResponse(status: 200, headers: [:], body: body)
        #expect {
            _ = try response.document(action: "listing apps")
        } throws: { error in
            error.localizedDescription == "App Store Connect's answer to listing apps could not be understood: the answer is 33554433 bytes, "
                + "more than the 33554432 bytes slipway decodes; check that the API's address points at App Store Connect."
        }
        #expect(AppStoreConnectAPIError.list(in: body).isEmpty)
    }
}
