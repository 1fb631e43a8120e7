import RippleStore
import Testing

/// Verge's `Changes.mapIfPresent`: a subscriber of an optional part of the state.
@Suite("Changes: mapIfPresent")
struct ChangesMapIfPresentTests {
    private struct Session: Equatable, Sendable {
        var user: User?
        var title = ""
    }

    private struct User: Equatable, Sendable {
        var name: String
        var age: Int
    }

    @Test("nil when the current value is absent")
    func absentCurrent() {
        let changes = Changes(previous: Session(user: User(name: "Ada", age: 36)), current: Session(user: nil))
        #expect(changes.mapIfPresent(\.user) == nil)
        #expect(changes.mapIfPresent { $0.user?.name } == nil)
    }

    @Test("the previous value is nil when it was absent, so every ifChanged runs")
    func absentPrevious() throws {
        let changes = Changes(
            previous: Session(user: nil), current: Session(user: User(name: "Ada", age: 36)), version: 4,
            transaction: Transaction(name: "login"))
        let user = try #require(changes.mapIfPresent(\.user))
        #expect(user.current == User(name: "Ada", age: 36))
        #expect(user.previous == nil)
        #expect(user.version == 4)
        #expect(user.transaction.name == "login")
        #expect(user.hasChanges(\.age))
        #expect(user.name == "Ada")
    }

    @Test("both present: ifChanged compares the unwrapped values")
    func bothPresent() throws {
        let changes = Changes(
            previous: Session(user: User(name: "Ada", age: 36)), current: Session(user: User(name: "Ada", age: 37)))
        let user = try #require(changes.mapIfPresent(\.user))
        #expect(user.previous == User(name: "Ada", age: 36))
        var names: [String] = []
        var ages: [Int] = []
        user.ifChanged(\.name) { names.append($0) }
        user.ifChanged(\.age) { ages.append($0) }
        #expect(names.isEmpty)
        #expect(ages == [37])
    }

    @Test("the closure form maps an optional the state computes")
    func closureForm() throws {
        let changes = Changes(
            previous: Session(user: User(name: "Ada", age: 36)), current: Session(user: User(name: "Grace", age: 36)))
        let name = try #require(changes.mapIfPresent { $0.user?.name })
        #expect(name.previous == "Ada")
        #expect(name.current == "Grace")
        #expect(name.hasChanges)
    }

    @Test("a stored key path works as well as a literal")
    func storedKeyPath() {
        let path: KeyPath<Session, User?> = \.user
        let changes = Changes<Session>(previous: nil, current: Session(user: User(name: "Ada", age: 1)))
        #expect(changes.mapIfPresent(path)?.current.name == "Ada")
    }
}
