-- wrk script: every request is GET /v1/pets?limit=100 with the bearer key from the environment
-- (PETSTORE_BENCH_KEY), without Accept-Encoding: the page goes out as it is.
wrk.method = "GET"
wrk.path = "/v1/pets?limit=100"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("PETSTORE_BENCH_KEY")
