import Greeting
import Testing

@Test func greets() {
    #expect(greeting(for: "Ada") == "Hello, Ada!")
}
