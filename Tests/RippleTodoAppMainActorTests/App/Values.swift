// A to-do app written as the articles show it, compiled as Xcode 26 compiles a new app target
// (see Package.swift): every declaration here is main-actor isolated by default, conformances
// are inferred isolated, and nonisolated async functions run on their caller's actor. Nothing
// in this folder says `nonisolated`, `Sendable`, `@unchecked Sendable`, `nonisolated(unsafe)`,
// `@preconcurrency`, `@MainActor` or `assumeIsolated`.

/// One to-do: a plain value type.
struct Todo: Identifiable, Equatable {
    let id: Int
    var title: String
    var isDone = false
}

/// Which to-dos the list shows; persisted as its raw value.
enum Filter: String {
    case all, active, done
}
