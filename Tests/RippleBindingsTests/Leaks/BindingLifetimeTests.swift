import Ripple
import RippleBindings
import RippleModels
import Testing

/// Something a closure captures, to see with a weak reference whether the closure was freed.
private final class Token: Sendable {}

@Suite struct BindingLifetimeTests {
    @Test("unbinding frees the per-binding computed value and what its closure captures")
    func computeClosureFreedOnUnbind() {
        let label = FakeLabel()
        let text = BindableProperty<String?>(label) { $0.text = $1 }
        let first = Stored("Ada")
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            text.bind { withExtendedLifetime(token) { first.value } }
        }
        #expect(weakToken != nil)
        text.unbind()
        #expect(weakToken == nil)
    }

    @Test("releasing a connected data source with a two-value selection frees it and its closures")
    func dataSourceFreed() {
        let source = Stored([Row(id: 1, title: "a"), Row(id: 2, title: "b")])
        let selected = Stored<Set<Int>>([1])
        let latest = Stored<Int?>(nil)
        weak var weakDataSource: ListDataSource<Int, Row>?
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            let dataSource = ListDataSource(items: source)
            weakDataSource = dataSource
            dataSource.bindSelection(selected, latest: latest)
            dataSource.connect(
                update: { _ in withExtendedLifetime(token) {} },
                selection: { _ in withExtendedLifetime(token) {} })
            source.value.append(Row(id: 3, title: "c"))
            dataSource.userDidSelect(at: ListIndex(item: 2))
        }
        #expect(weakDataSource == nil)
        #expect(weakToken == nil)
        // Nothing reacts any more.
        source.value = []
        selected.value = [2]
        #expect(latest.value == 3)
    }

    @Test("cancelling a connection frees the view's closures")
    func connectionClosuresFreed() {
        let source = Stored([Row(id: 1, title: "a")])
        let dataSource = ListDataSource(items: source)
        weak var weakToken: Token?
        var connection: Subscription?
        do {
            let token = Token()
            weakToken = token
            connection = dataSource.connect(update: { _ in withExtendedLifetime(token) {} })
        }
        connection?.cancel()
        #expect(weakToken == nil)
        withExtendedLifetime(dataSource) {}
    }

    @Test("a two-way property with a debounce, released, frees the property and runs onUnbind once")
    func twoWayReleased() {
        let name = Stored("Ada")
        let cleanups = Locked(0)
        weak var weakProperty: TwoWayBindableProperty<String>?
        let field = FakeField()
        do {
            let property = editableProperty(of: field)
            weakProperty = property
            property.bind(
                ValueBinding(name), .identity.debounce(for: .seconds(3600)),
                onUnbind: { cleanups.mutate { $0 += 1 } })
            field.type("Grace")
        }
        #expect(weakProperty == nil)
        #expect(name.value == "Grace")  // the waiting edit was written, not dropped
        #expect(cleanups.value == 1)
        name.value = "Linus"
        #expect(field.text == "Grace")
    }

    @Test("didChangeElements and willChange handlers are freed when cancelled")
    func arrayHandlersFreed() {
        let array = ObservableArray([1, 2])
        weak var weakToken: Token?
        var subscriptions: [Subscription] = []
        do {
            let token = Token()
            weakToken = token
            subscriptions.append(array.didChangeElements { _, _ in withExtendedLifetime(token) {} })
            subscriptions.append(array.willChange { _, _ in withExtendedLifetime(token) {} })
        }
        array.append(3)
        for subscription in subscriptions { subscription.cancel() }
        #expect(weakToken == nil)
    }
}
