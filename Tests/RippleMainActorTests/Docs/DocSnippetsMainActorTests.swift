import Foundation
import Ripple
import RippleModels
import RippleStore
import Testing

// Snippets of the articles that a newcomer trial found failing (or missing) in an app target,
// compiled here with the app-target settings (main-actor by default).

/// A key-value store in memory, so that the test reads no value an earlier run saved.
nonisolated final class DocsMemoryStore: KeyValueStore, @unchecked Sendable {
    private let lock = NSLock()
    private var objects: [String: Any] = [:]
    func object(forKey key: String) -> Any? { lock.withLock { objects[key] } }
    func set(_ value: Any?, forKey key: String) { lock.withLock { objects[key] = value } }
    func scheduleSave(_ save: @escaping @Sendable () -> Void) { save() }
}

nonisolated enum DocsTheme: String, Sendable { case light, dark }

nonisolated struct DocsProfile: Equatable, Sendable { var name = "" }
nonisolated struct DocsAppState: Equatable, Sendable { var profile = DocsProfile() }

/// TheStore.md, "Dispatchers": declared `nonisolated`, as the article's other types are (without
/// it: "main actor-isolated initializer 'init(target:scope:)' has different actor isolation from
/// nonisolated overridden declaration").
nonisolated final class DocsProfileActions: Dispatcher<DocsAppState, Never, DocsProfile>, @unchecked Sendable {
    func rename(_ name: String) { commit { $0.name = name } }
}

@Suite("Article snippets in an app target")
struct DocSnippetsMainActorTests {
    /// RippleModels' Getting Started, "Persist values", the main-actor form.
    final class AppSettings: ObservableModel {
        @Persisted("volume", store: DocsMemoryStore()) var volume = 0.5
        @Persisted("theme", store: DocsMemoryStore()) var theme = DocsTheme.light
    }

    @Test("a main-actor model persists values, with didChange on its bindings")
    func persistedMainActorModel() {
        let appSettings = AppSettings()
        var themes: [DocsTheme] = []
        let themeObserver = appSettings.bindings.theme.didChange { themes.append($0) }
        appSettings.theme = .dark
        appSettings.volume = 0.8
        #expect(themes == [.dark])
        #expect(appSettings.volume == 0.8)
        withExtendedLifetime(themeObserver) {}
    }

    @Test("a nonisolated dispatcher commits to its scope")
    func dispatcher() {
        let store = Store<DocsAppState, Never>(initialState: DocsAppState())
        let profileActions = DocsProfileActions(target: store, scope: \.profile)
        profileActions.rename("Ada")
        #expect(store.currentState.profile.name == "Ada")
    }
}
