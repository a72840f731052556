-- wrk script: every request is GET /v1/pets?limit=100 with the bearer key from the environment
-- (PETSTORE_BENCH_KEY) and Accept-Encoding: gzip, as a browser sends it: the page goes out gzipped.
wrk.method = "GET"
wrk.path = "/v1/pets?limit=100"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("PETSTORE_BENCH_KEY")
wrk.headers["Accept-Encoding"] = "gzip, deflate, br"
