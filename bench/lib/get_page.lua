-- wrk script: every request is GET /v1/pets?limit=20 with the bearer key from the environment
-- (PETSTORE_BENCH_KEY), never from the command line.
wrk.method = "GET"
wrk.path = "/v1/pets?limit=20"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("PETSTORE_BENCH_KEY")
