import Ripple
import RippleBindings
import RippleModels
import Testing

@Suite struct ListDataSourceConnectionTests {
    @Test("a cancelled connection tells its view nothing more, even an update already queued")
    func cancelledConnectionIsSilent() {
        let manual = ManualScheduler()
        let source = Stored([Row(id: 1, title: "a")])
        let dataSource = ListDataSource(items: source, on: manual.scheduler)
        let updates = Locked<[ListUpdate]>([])
        let connection = dataSource.connect(update: { update in updates.mutate { $0.append(update) } })
        manual.runAll()
        source.value.append(Row(id: 2, title: "b"))  // queued for the scheduler
        connection.cancel()  // "cancel it to stop"
        manual.runAll()
        #expect(updates.value.isEmpty, "update after cancel: \(updates.value)")
    }

    @Test("an update queued for a cancelled connection does not reach (or corrupt) the next view")
    func cancelledThenReconnected() {
        let manual = ManualScheduler()
        let source = Stored([Row(id: 1, title: "a")])
        let dataSource = ListDataSource(items: source, on: manual.scheduler)
        let old = Locked<[ListUpdate]>([])
        let new = Locked<[ListUpdate]>([])
        let first = dataSource.connect(update: { update in old.mutate { $0.append(update) } })
        manual.runAll()
        source.value.append(Row(id: 2, title: "b"))  // queued for the first view
        first.cancel()
        source.value.append(Row(id: 3, title: "c"))
        // A second view connects and reloads: it shows the three rows the data source shows.
        dataSource.connect(update: { update in new.mutate { $0.append(update) } })
        let reloaded = dataSource.numberOfItems(inSection: 0)
        #expect(reloaded == 3)
        manual.runAll()
        // Nothing changed since the second view reloaded: it must be told nothing.
        #expect(new.value.isEmpty, "the reloaded view was told \(new.value)")
        #expect(old.value.isEmpty, "the cancelled view was told \(old.value)")
        #expect(dataSource.numberOfItems(inSection: 0) == 3)
    }
}
