package temporaltool

// ActivityErrorForTest is activityError, for the external tests.
var ActivityErrorForTest = activityError
