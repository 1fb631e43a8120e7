import Testing
@testable import Ripple

private enum ParseError: Error, Equatable {
    case empty
    case notANumber(String)
}

/// An error that is not `Equatable`.
private struct Opaque: Error {
    let code: Int
}

@Suite("Throwing Computed")
struct ThrowingComputedTests {
    @Test("the error is cached like a value and rethrown until a source changes")
    func errorIsCachedUntilASourceChanges() throws {
        let text = Stored("")
        let evaluations = Counter()
        let number = Computed { () throws(ParseError) -> Int in
            evaluations.increment()
            guard !text.value.isEmpty else { throw .empty }
            guard let number = Int(text.value) else { throw .notANumber(text.value) }
            return number
        }
        #expect(number.value == .failure(.empty))
        #expect(throws: ParseError.empty) { try number.get() }
        #expect(evaluations.value == 1)
        text.value = "x"
        #expect(throws: ParseError.notANumber("x")) { try number.get() }
        #expect(evaluations.value == 2)
        text.value = "42"
        #expect(try number.get() == 42)
        #expect(evaluations.value == 3)
    }

    @Test("get() rethrows the derivation's typed error")
    func getRethrowsTypedError() {
        let text = Stored("")
        let number = Computed { () throws(ParseError) -> Int in
            guard let number = Int(text.value) else { throw .empty }
            return number
        }
        do throws(ParseError) {
            _ = try number.get()
            Issue.record("expected an error")
        } catch {
            #expect(error == .empty)
        }
    }

    @Test("an equal error is cut off: readers do not run again")
    func equalErrorIsCutOff() {
        let text = Stored("a")
        let number = Computed { () throws(ParseError) -> Int in
            guard let number = Int(text.value) else { throw text.value.isEmpty ? .empty : .notANumber("?") }
            return number
        }
        let seen = Recorder<Result<Int, ParseError>>()
        let subscription = observe { seen.append(number.value) }
        text.value = "b"  // the same error: cut off
        text.value = "c"
        #expect(seen.count == 1)
        text.value = ""  // another error
        text.value = "1"
        text.value = "01"  // the same value: cut off
        #expect(seen.all == [.failure(.notANumber("?")), .failure(.empty), .success(1)])
        subscription.cancel()
    }

    @Test("an error that is not Equatable counts as a change every time; values still compare")
    func nonEquatableErrorAlwaysChanges() {
        let input = Stored(-1)
        let checked = Computed { () throws(Opaque) -> Int in
            if input.value < 0 { throw Opaque(code: input.value) }
            return input.value / 10
        }
        let runs = Counter()
        let subscription = observe {
            _ = checked.value; runs.increment()
        }
        input.value = -2  // a new error: a change
        #expect(runs.value == 2)
        input.value = 10
        input.value = 11  // 1 again: cut off
        #expect(runs.value == 3)
        subscription.cancel()
    }

    @Test("errors travel through computed values glitch-free, each evaluated once per write")
    func glitchFreeWithErrors() {
        let source = Stored(0)
        let evaluations = Counter()
        let half = Computed { () throws(ParseError) -> Int in
            if source.value % 2 != 0 { throw .notANumber("\(source.value)") }
            return source.value / 2
        }
        let double = Computed { source.value * 2 }
        let both = Computed { () throws(ParseError) -> String in
            evaluations.increment()
            return "\(try half.get()) \(double.value)"
        }
        let seen = Recorder<String>()
        let subscription = observe {
            switch both.value {
            case .success(let text): seen.append(text)
            case .failure(let error): seen.append("\(error) \(double.value)")
            }
        }
        source.value = 1
        source.value = 2
        #expect(seen.all == ["0 0", "notANumber(\"1\") 2", "1 4"])
        #expect(evaluations.value == 3)
        subscription.cancel()
    }

    @Test("a reaction whose body throws reports the error and keeps its dependencies")
    func throwingReactionKeepsDependencies() {
        let text = Stored("1")
        let total = Stored(0)
        let caught = Recorder<ParseError>()
        let subscription = observe(catch: { caught.append($0) }) { () throws(ParseError) in
            guard let number = Int(text.value) else { throw .notANumber(text.value) }
            total.value = number
        }
        text.value = "x"
        #expect(caught.all == [.notANumber("x")])
        text.value = "y"
        #expect(caught.all == [.notANumber("x"), .notANumber("y")])
        text.value = "5"
        #expect(total.value == 5)
        #expect(caught.count == 2)
        subscription.cancel()
    }

    @Test("reactions keep their order when some throw")
    func orderingWithThrowingReactions() {
        let source = Stored(0)
        let log = Recorder<String>()
        let first = observe(catch: { (_: Opaque) in log.append("first caught") }) { () throws(Opaque) in
            if source.value == 1 { throw Opaque(code: 1) }
            log.append("first \(source.value)")
        }
        let second = observe { log.append("second \(source.value)") }
        source.value = 1
        source.value = 2
        #expect(log.all == ["first 0", "second 0", "first caught", "second 1", "first 2", "second 2"])
        first.cancel()
        second.cancel()
    }

    @Test("without a handler, the error is reported in a message naming the reaction")
    func defaultHandlerNamesTheReaction() {
        let messages = Recorder<String>()
        let source = Stored(0)
        let subscription = _withRuntimeMessages({ messages.append($0) }) {
            observe(named: "saver") { () throws(Opaque) in
                if source.value > 0 { throw Opaque(code: source.value) }
            }
        }
        _withRuntimeMessages({ messages.append($0) }) { source.value = 3 }
        #expect(messages.count == 1)
        #expect(messages.all.first?.contains("'saver'") == true)
        #expect(messages.all.first?.contains("Opaque(code: 3)") == true)
        subscription.cancel()
    }
}
