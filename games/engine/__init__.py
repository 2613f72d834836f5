from games.engine.build import prefer_compiled

prefer_compiled(__path__, "games/engine")
