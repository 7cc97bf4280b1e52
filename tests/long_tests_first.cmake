# Read by CTest after the discovered GoogleTest tests (TEST_INCLUDE_FILES):
# the longest tests, with their seconds on CI's 2-core machine (sanitizer
# tree, the longer of the two), as their COST, so that `ctest -j` starts them
# first instead of leaving one for the end, while the other core idles (a
# fresh clone has no timing history for CTest to order by). A name missing
# here only costs time, never a result.
foreach(long IN ITEMS
    "Cli.ShippedLitmusTestsAgreeWithTheirVerdicts=105"
    "Shipped/PlatformReferences.MatchesItsPublishedCoreToCoreAndMemoryLatencies/graviton2=40"
    "Cli.CalibrateRunsALaterCaseOnlyForTheDrawsThatPassedTheEarlierOnes=53"
    "Cli.AnInterruptedSweepSaysSoKeepsWhatFinishedAndResumes=43"
    "Cli.TicketLockInCRunsAsTheAssemblyLockDoes=41"
    "Cli.CalibrateChecksTheLoadToUseFiguresBeforeRunningTheCases=40"
    "Cli.C2cDynamiqMatchesItsPublishedMatrixThroughTheDsu=32"
    "Cli.PredictMarginBracketsTheFlip=30"
    "Cli.CalibrateKeepsOnlyTheDrawsThatMatchTheCoreToCoreFigures=26"
    "Cli.SweepKilledAndResumedEqualsUninterrupted=26")
  string(REPLACE "=" ";" pair "${long}")
  list(GET pair 0 name)
  list(GET pair 1 seconds)
  set_tests_properties("${name}" PROPERTIES COST ${seconds})
endforeach()
