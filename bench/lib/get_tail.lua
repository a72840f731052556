-- wrk script: every request is GET /v1/pets?limit=20 past the newest pet (an empty page, as a
-- client polling for new pets sees it), with the bearer key from the environment
-- (PETSTORE_BENCH_KEY), never from the command line. Such a page shows nothing on its face, so a
-- replica may serve it only once it has replayed the primary's position (issue 42).
wrk.method = "GET"
wrk.path = "/v1/pets?limit=20&after=9000000000000000000"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("PETSTORE_BENCH_KEY")
