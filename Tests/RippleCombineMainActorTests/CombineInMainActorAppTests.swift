import Ripple
import RippleCombine
import RippleModels
import Testing

// RippleCombine as its articles show it, compiled as Xcode 26 compiles a new app target (see
// Package.swift): every declaration here is main-actor isolated by default. Nothing in this
// file says `nonisolated`, `Sendable`, `@unchecked Sendable`, `@preconcurrency`, `@MainActor`
// or `assumeIsolated`.

/// A label of the app's UI: main-actor state.
final class Label {
    var text = ""
}

/// A view model, as the RippleModels articles write one in an app target.
final class ProfileModel: ObservableModel {
    @Observed var name = ""
    @Observed var title = "Untitled"
}

@Suite("RippleCombine in a main-actor app target")
struct CombineInMainActorAppTests {
    @Test("a Stored's publisher, through operators, into a main-actor label")
    func storedPublisher() {
        let count = Stored(0)
        let label = Label()
        var lines: [String] = []
        let cancellable = count.publisher
            .map { "\($0) items" }
            .sink { text in
                label.text = text
                lines.append(text)
            }
        count.value = 2
        count.value = 2
        count.value = 3
        #expect(lines == ["0 items", "2 items", "3 items"])
        #expect(label.text == "3 items")
        cancellable.cancel()
    }

    @Test("a computed title's publisher, deduplicated, and a publisher assigned to a Stored")
    func overview() {
        let model = ProfileModel()
        let title = MainActorComputed { model.title.uppercased() }
        let label = Label()
        let cancellable = title.publisher
            .removeDuplicates()
            .sink { label.text = $0 }
        let saves = PassthroughSubject<Int, Never>()
        let lastSaved = Stored(0)
        let saved = saves.map { $0 * 10 }.assign(to: lastSaved)
        model.title = "Notes"
        saves.send(4)
        #expect(label.text == "NOTES")
        #expect(lastSaved.value == 40)
        cancellable.cancel()
        saved.cancel()
    }

    @Test("publishers into Ripple: assign, an atomic sink, and a model property's binding")
    func publishersIntoRipple() {
        let numbers = PassthroughSubject<Int, Never>()
        let names = PassthroughSubject<String, Never>()
        let model = ProfileModel()
        let latest = Stored(0)
        let total = Stored(0)
        let a = numbers.assign(to: latest)
        let b = numbers.sink(into: total) { total, n in total += n }
        let c = names.assign(to: model.bindings.name)
        numbers.send(2)
        numbers.send(5)
        names.send("Ada")
        #expect(latest.value == 5)
        #expect(total.value == 7)
        #expect(model.name == "Ada")
        a.cancel()
        b.cancel()
        c.cancel()
    }

    @Test("an event's publisher delivers the values sent from then on")
    func eventPublisher() {
        let tapped = Event<Int>()
        var taps: [Int] = []
        let cancellable = tapped.publisher.sink { taps.append($0) }
        tapped.send(1)
        tapped.send(2)
        #expect(taps == [1, 2])
        cancellable.cancel()
    }
}
